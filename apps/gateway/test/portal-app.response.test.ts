// The portal web app at /app/: index.html for every app path with the strict CSP, hashed assets
// cached for a year, 404 for a missing asset, and nothing but GET/HEAD.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGateway, startSuite, type Gateway, type Suite } from './support/harness';

const INDEX =
  '<!doctype html><title>Partner portal</title><script type="module" src="/app/assets/index-abc123.js"></script>';

describe('the portal app at /app/', () => {
  let suite: Suite;
  let gateway: Gateway;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("portal");');
    suite = await startSuite();
    gateway = await startGateway({ ...suite.env, PORTAL_DIST_DIR: dir });
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/app/', '/app/sign-in', '/app/domains/dom_1?page=2', '/app/integrations/api-keys'])(
    'when %s is asked for, then index.html answers with the strict CSP and no caching',
    async (pathname) => {
      const res = await fetch(gateway.url + pathname);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cross-origin-resource-policy')).toBeNull();
      expect(await res.text()).toBe(INDEX);
    },
  );

  it('when a hashed asset is asked for, then it is served gzipped and immutable, and its ETag revalidates', async () => {
    const res = await fetch(gateway.url + '/app/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe('console.log("portal");');
    const again = await fetch(gateway.url + '/app/assets/index-abc123.js', {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('when an asset does not exist, then 404 answers in the error envelope (never index.html)', async () => {
    const res = await fetch(gateway.url + '/app/assets/gone-000.js');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ROUTE.NOT_FOUND');
  });

  it('when /app has no slash, then it redirects to /app/', async () => {
    const res = await fetch(gateway.url + '/app', { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/app/');
  });

  it('when a write is sent to an app path, then 405 answers with Allow', async () => {
    const res = await fetch(gateway.url + '/app/sign-in', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('when /application is asked for, then it is not the portal (404 from the API)', async () => {
    const res = await fetch(gateway.url + '/application');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

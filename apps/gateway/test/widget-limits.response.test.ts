import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { ROUTES } from '@platform/contracts';
import {
  FOREIGN_ORIGIN,
  bearer,
  envelope,
  json,
  startGateway,
  startSuite,
  type Gateway,
  type Suite,
} from './support/harness';

const PER_ADDRESS = 5;
const PER_PROPERTY = 8;
const MAX_ADDRESSES = 20;
const BUNDLE = 'widget.0123abcd.js';
const PACK = 'lang-de.0A1B2C3D.js';

// The platform's route table, small public rate limits, the client address from X-Forwarded-For
// (loopback is a trusted proxy), a stub domains-svc and a widget build of its own (a fixture
// standing in for apps/widget's dist folder).
describe('public widget limits and static files', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;
  let distDir: string;

  const settingsFrom = (address: string, propertyId: string, origin = 'https://shop.example.com') =>
    fetch(`${gateway.url}/widget/v1/properties/${propertyId}/settings`, {
      headers: { origin, 'x-forwarded-for': address },
    });
  const get = async (p: string, headers: Record<string, string> = {}) => {
    const res = await request(`${gateway.url}${p}`, { headers });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body };
  };

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'widget-dist-'));
    await writeFile(
      path.join(distDir, 'loader.js'),
      `(function(){var s=document.createElement('script');s.src='assets/__WIDGET_BUNDLE__';})();\n`,
    );
    await writeFile(
      path.join(distDir, BUNDLE),
      `window.PrivacyWidget={open:function(){}};\n${'/* padding */\n'.repeat(200)}`,
    );
    await writeFile(path.join(distDir, PACK), `PrivacyWidget._.pack('de',{acceptAll:'Alle akzeptieren'});\n`);
    await writeFile(path.join(distDir, 'manifest.json'), JSON.stringify({ widget: BUNDLE, lang: { de: PACK } }));
    suite = await startSuite();
    gateway = await startGateway(
      {
        ...suite.env,
        PUBLIC_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
        PUBLIC_RATE_LIMIT_PER_PROPERTY: String(PER_PROPERTY),
        PUBLIC_RATE_LIMIT_MAX_ADDRESSES: String(MAX_ADDRESSES),
        TRUSTED_PROXIES: 'loopback',
        WIDGET_DIST_DIR: distDir,
      },
      ROUTES,
    );
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('when one address goes past its per-minute limit, then it gets 429 RATE.LIMITED with Retry-After, while another address and the partner API are answered', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    for (let i = 0; i < PER_ADDRESS; i++) expect((await settingsFrom('203.0.113.1', a)).status).toBe(200);
    const refused = await settingsFrom('203.0.113.1', b);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual(envelope('RATE.LIMITED', 429));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await settingsFrom('203.0.113.2', b)).status).toBe(200);
    const partnerCall = await fetch(`${gateway.url}/portal/domains/${randomUUID()}`, {
      headers: bearer(key, { 'x-forwarded-for': '203.0.113.1' }),
    });
    expect(partnerCall.status).toBe(200);
  });

  it("when one property goes past its per-minute limit from many addresses, then it gets 429 while another property's widget is answered", async () => {
    const [flooded, other] = [randomUUID(), randomUUID()];
    for (let i = 0; i < PER_PROPERTY; i++)
      expect((await settingsFrom(`198.51.100.${i + 1}`, flooded)).status).toBe(200);
    const refused = await settingsFrom('198.51.100.200', flooded);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual(envelope('RATE.LIMITED', 429));
    expect((await settingsFrom('198.51.100.201', other)).status).toBe(200);
  });

  it("when many addresses send a property's settings requests with a foreign Origin, then the service's 403s spend none of its budget and its real visitors are answered", async () => {
    const property = randomUUID();
    const stateBefore = gateway.deps.publicLimits.byProperty.size;
    for (let i = 0; i < PER_PROPERTY * 3; i++) {
      const refused = await settingsFrom(`192.0.2.${i + 1}`, property, FOREIGN_ORIGIN);
      expect(refused.status).toBe(403);
      expect(await json(refused)).toEqual(envelope('WIDGET.ORIGIN_NOT_ALLOWED', 403));
    }
    expect(gateway.deps.publicLimits.byProperty.size).toBe(stateBefore);
    for (let i = 0; i < PER_PROPERTY; i++)
      expect((await settingsFrom(`192.0.2.${200 + i}`, property)).status).toBe(200);
    expect((await settingsFrom('192.0.2.250', property)).status).toBe(429);
  });

  it('when settings are asked for property ids that are not UUIDs, then 404 RESOURCE.NOT_FOUND and no per-property state is kept for them', async () => {
    const stateBefore = gateway.deps.publicLimits.byProperty.size;
    for (let i = 0; i < 10; i++) {
      const madeUp = `${randomUUID()}${'x'.repeat(28)}`.slice(0, 64 - i);
      const refused = await settingsFrom(`100.64.0.${i + 1}`, madeUp);
      expect(refused.status).toBe(404);
      expect(await json(refused)).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
    }
    expect(gateway.deps.publicLimits.byProperty.size).toBe(stateBefore);
  });

  it('when more client addresses call than PUBLIC_RATE_LIMIT_MAX_ADDRESSES, then the per-address state stays at that cap', async () => {
    for (let i = 0; i < MAX_ADDRESSES * 2; i++)
      expect((await settingsFrom(`100.65.${i}.1`, randomUUID(), FOREIGN_ORIGIN)).status).toBe(403);
    expect(gateway.deps.publicLimits.byAddress.size).toBe(MAX_ADDRESSES);
  });

  it("when the loader is fetched at the snippet's path with no API key, then it names the hashed bundle, is gzipped when asked, cached 5 minutes, embeddable cross-origin, and 304 for its ETag", async () => {
    const loader = `/widget/v1/${randomUUID()}/loader.js`;
    const plain = await get(loader);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=300');
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(plain.headers['content-security-policy']).toBeUndefined();
    expect(plain.body.toString()).toContain(`assets/${BUNDLE}`);
    expect(plain.body.toString()).not.toContain('__WIDGET_BUNDLE__');
    const gz = await get(loader, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
    const again = await get(loader, { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('when the bundle or a language pack is fetched by its hashed name, then it is immutable for a year; an unknown asset is 404 in the envelope', async () => {
    const bundle = await get(`/widget/v1/assets/${BUNDLE}`, { 'accept-encoding': 'gzip' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(bundle.body).toString()).toContain('window.PrivacyWidget');
    // A language pack (fetched by the bundle only for a visitor in that language) is an immutable asset too.
    const pack = await get(`/widget/v1/assets/${PACK}`);
    expect([pack.status, pack.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(pack.body.toString()).toContain("pack('de'");
    const missing = await get('/widget/v1/assets/widget.ffffffff.js');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString())).toEqual(envelope('ROUTE.NOT_FOUND', 404));
  });
});

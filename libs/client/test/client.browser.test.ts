import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../../..');

/** The client bundled for browsers, as the portal's build sees it: a Node built-in would fail the build. */
async function browserBundle() {
  const result = await build({
    entryPoints: [path.join(ROOT, 'libs/client/src/index.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'PlatformClient',
    target: 'es2022',
    write: false,
    metafile: true,
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) };
}

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('@platform/client in a real browser (Chromium)', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];
  let bundle: Awaited<ReturnType<typeof browserBundle>>;

  beforeAll(async () => {
    bundle = await browserBundle();
    // The page and the API on one origin, as the portal is served by the gateway.
    let writes = 0;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.url === '/app/')
          return void res
            .writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'pp_session=s1; Path=/; SameSite=Lax' })
            .end('<!doctype html><title>portal</title><script src="/app/client.js"></script>');
        if (req.url === '/app/client.js')
          return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle.code);
        seen.push({ method: req.method ?? '', headers: req.headers, body });
        const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
          void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
        if (req.method === 'POST' && writes++ === 0)
          return json(
            503,
            { error: { code: 'SERVICE.UNAVAILABLE', ns: 'SERVICE', status: 503, message: 'busy' } },
            {
              'Retry-After': '0',
            },
          );
        if (req.method === 'POST') return json(200, { result: { id: 'd1' } });
        json(404, { error: { code: 'DOMAIN.NOT_FOUND', ns: 'DOMAIN', status: 404, message: 'No such domain' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Chromium as the widget's tests run it (libs/testing's launchChromium; this browser-tagged lib may not import libs/testing).
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('when bundled for browsers, then no Node built-in, zod or contracts code is in it', () => {
    expect(bundle.inputs.some((file) => file.includes('openapi-fetch'))).toBe(true);
    expect(bundle.inputs.filter((file) => /^node:|\/zod\/|libs\/contracts/.test(file))).toEqual([]);
  });

  it('when a portal page writes with its session, then the cookie and X-CSRF-Token go along, a 503 is retried with the same Idempotency-Key, and a 404 throws PlatformApiError', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/app/`);
    const outcome = await page.evaluate(async (baseUrl) => {
      const { createPlatformClient, PlatformApiError } = (
        globalThis as unknown as { PlatformClient: typeof import('../src') }
      ).PlatformClient;
      const client = createPlatformClient({ baseUrl, credentials: 'include', csrfToken: () => 'tok-1' });
      const created = await client.POST('/portal/domains', {
        body: { domain: 'shop.example.com', company_name: 'Shop Ltd', account_email: 'owner@shop.example.com' },
      });
      const missing = await client.GET('/portal/domains/{domainId}', { params: { path: { domainId: 'nope' } } }).then(
        () => undefined,
        (err: unknown) =>
          err instanceof PlatformApiError ? { status: err.status, code: err.code, message: err.message } : String(err),
      );
      return { created: created.data, missing };
    }, origin);
    await page.close();
    expect(outcome).toEqual({
      created: { result: { id: 'd1' } },
      missing: { status: 404, code: 'DOMAIN.NOT_FOUND', message: 'No such domain' },
    });
    const posts = seen.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts[1].headers['idempotency-key']).toBe(posts[0].headers['idempotency-key']);
    for (const post of posts) expect(post.headers).toMatchObject({ cookie: 'pp_session=s1', 'x-csrf-token': 'tok-1' });
    const get = seen.find((r) => r.method === 'GET');
    expect(get?.headers['x-csrf-token']).toBeUndefined();
    expect(get?.headers.authorization).toBeUndefined();
  });
});

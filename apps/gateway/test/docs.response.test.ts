import { startGateway, startSuite, TEST_ROUTES, type Gateway, type Suite, json } from './support/harness';

describe('gateway documentation and health endpoints', () => {
  let suite: Suite;
  let gateway: Gateway;

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway(suite.env);
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  it('when /openapi.json is requested without a key, then an OpenAPI 3.1 document of the route table answers', async () => {
    const res = await fetch(`${gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const doc = await json(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual(expect.objectContaining({ version: '1.0', title: expect.any(String) }));
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    for (const route of TEST_ROUTES) {
      const op = doc.paths[route.path][route.method];
      expect(op.operationId).toBe(route.operationId);
      expect(op['x-permission']).toBe(route.permission);
      // The gateway's own answers are documented on every operation.
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429', '503']));
    }
    expect(Object.keys(doc.paths['/portal/things'].post.responses)).toEqual(
      expect.arrayContaining(['400', '413', '415']),
    );
  });

  it('when /docs is requested, then an HTML reference page loads its assets locally and points at /openapi.json', async () => {
    const page = await fetch(`${gateway.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(await fetch(`${gateway.url}/docs/init.js`).then((r) => r.text())).toContain("'/openapi.json'");
    for (const asset of [
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui-standalone-preset.js',
    ]) {
      expect(html).toContain(asset);
      const res = await fetch(`${gateway.url}${asset}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });

  it('when health is probed, then live answers on both ports, ready (with the database checked) and metrics only on the admin port', async () => {
    expect((await fetch(`${gateway.url}/health/live`)).status).toBe(200);
    expect((await fetch(`${gateway.adminUrl}/health/live`)).status).toBe(200);
    const ready = await fetch(`${gateway.adminUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await json(ready)).toEqual({ status: 'ok', checks: { database: 'ok' } });
    expect((await fetch(`${gateway.adminUrl}/metrics`)).headers.get('content-type')).toMatch(/^text\/plain/);
    for (const path of ['/health/ready', '/metrics']) {
      const res = await fetch(`${gateway.url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await json(res)).toEqual({ error: expect.objectContaining({ code: 'ROUTE.NOT_FOUND', status: 404 }) });
    }
  });
});

import { envelope, startDomainsSvc, type Harness, type TestPartner } from './support/harness';

/** The HTTP rules the route-table dispatcher keeps: the same answers the Express pipeline gave. */
describe('portal request protocol', () => {
  let h: Harness;
  let p: TestPartner;
  beforeAll(async () => {
    h = await startDomainsSvc();
    p = h.partner();
  });
  afterAll(() => h?.close());

  const raw = (path: string, init: RequestInit = {}, who: TestPartner | undefined = p) =>
    fetch(`${h.base}${path}`, {
      ...init,
      headers: {
        ...(who ? { authorization: `Bearer ${who.token}` } : {}),
        ...(init.headers as Record<string, string>),
      },
    });

  it('when a request carries x-request-id, then the answer echoes it; without one, then a new id is sent', async () => {
    const echoed = await raw('/portal/domains', { headers: { 'x-request-id': 'req-123.abc' } });
    expect(echoed.status).toBe(200);
    expect(echoed.headers.get('x-request-id')).toBe('req-123.abc');
    expect(echoed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const generated = await raw('/portal/domains', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when a known path is called with another method, then 405 ROUTE.METHOD_NOT_ALLOWED with Allow', async () => {
    const res = await raw('/portal/domains/abc/activate', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual(envelope('ROUTE.METHOD_NOT_ALLOWED', 405));
  });

  it('when a body is not JSON, then 415; when it is over 1 MB, then 413; both in the envelope', async () => {
    const text = await raw('/portal/domains', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect({ status: text.status, body: await text.json() }).toEqual({
      status: 415,
      body: envelope('REQUEST.UNSUPPORTED_MEDIA_TYPE', 415),
    });
    const latin = await raw('/portal/domains', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: '{}',
    });
    expect(latin.status).toBe(415);
    const huge = JSON.stringify({ domain: 'x'.repeat(1024 * 1024 + 10) });
    const large = await raw('/portal/domains', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge,
    });
    expect({ status: large.status, body: await large.json() }).toEqual({
      status: 413,
      body: envelope('REQUEST.TOO_LARGE', 413),
    });
  });

  it('when several inputs are invalid, then one 400 lists every issue by location (body.x, query.x)', async () => {
    const res = await h.call(p, 'DELETE', '/portal/domains/x/subdomains?ignored=1', { subdomain: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error.data.issues.map((i: { path: string }) => i.path)).toEqual(['body.subdomain']);
    const list = await h.call(p, 'GET', '/portal/domains?limit=abc&page=0');
    expect(list.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(list.body.error.data.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'query.limit',
      'query.page',
    ]);
  });

  it('when a required body is missing, then 400 VALIDATION.INVALID at path body', async () => {
    const res = await h.call(p, 'POST', '/portal/domains');
    expect(res.body).toEqual(envelope('VALIDATION.INVALID', 400));
    expect(res.body.error.data.issues).toEqual([expect.objectContaining({ path: 'body' })]);
  });

  it('when health or an unknown non-portal path is called, then Express still answers (200 / 404 envelope)', async () => {
    expect((await raw('/health/live', {}, undefined)).status).toBe(200);
    const unknown = await raw('/nowhere', {}, undefined);
    expect({ status: unknown.status, body: await unknown.json() }).toEqual({
      status: 404,
      body: envelope('ROUTE.NOT_FOUND', 404),
    });
  });
});

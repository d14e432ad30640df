import { startGateway, startSuite, bearer, envelope, type Gateway, type Suite, json } from './support/harness';

describe('forwarding /portal requests to the owning service', () => {
  let suite: Suite;
  let gateway: Gateway;
  let partnerId: string;
  let key: { id: string; key: string };

  beforeAll(async () => {
    suite = await startSuite();
    gateway = await startGateway(suite.env);
    partnerId = await suite.partner(['phone_number', 'account_first_name']);
    key = await suite.key(partnerId, '--permissions', 'domains:read,domains:write');
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  it("when a request is forwarded, then the service gets a valid internal token for the key partner, with its permissions, required fields and the partner's name", async () => {
    const res = await fetch(`${gateway.url}/portal/things`, { headers: bearer(key.key) });
    expect(res.status).toBe(200);
    const { result } = await json(res);
    expect(result.caller).toEqual({
      partnerId,
      keyId: key.id,
      permissions: ['domains:read', 'domains:write'],
      requiredFields: ['phone_number', 'account_first_name'],
      partnerName: expect.stringMatching(/^partner-\d+$/),
      issuer: 'gateway',
    });
  });

  it('when the path has a query string and encoded characters, then the service sees them unchanged', async () => {
    const path = '/portal/things/a%20b?product_id=1&product_id=2&q=%C3%A9t%C3%A9&empty=';
    const { result } = await json(await fetch(`${gateway.url}${path}`, { headers: bearer(key.key) }));
    expect(result.method).toBe('GET');
    expect(result.url).toBe(path);
  });

  it('when a JSON body is sent, then its exact bytes and content type reach the service, and its status comes back', async () => {
    const raw = '{ "name" : "caf\u00e9",  "n": 1.50 }';
    const res = await fetch(`${gateway.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key.key, { 'content-type': 'application/json; charset=utf-8' }),
      body: raw,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/json');
    const { result } = await json(res);
    expect(result.body).toBe(raw);
    expect(result.contentType).toBe('application/json; charset=utf-8');
  });

  it('when the caller sends a request id, then the service and the answer carry the same id', async () => {
    const res = await fetch(`${gateway.url}/portal/things`, {
      headers: bearer(key.key, { 'x-request-id': 'trace-abc-123' }),
    });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    expect((await json(res)).result.requestId).toBe('trace-abc-123');
  });

  it('when no (or an unusable) request id is sent, then the gateway makes one and passes it on', async () => {
    for (const headers of [{}, { 'x-request-id': 'bad id with spaces' }] as Record<string, string>[]) {
      const res = await fetch(`${gateway.url}/portal/things`, { headers: bearer(key.key, headers) });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await json(res)).result.requestId).toBe(id);
    }
  });

  it('when the service answers an error envelope, then status and body are relayed as they are', async () => {
    const res = await fetch(`${gateway.url}/portal/things/missing`, { headers: bearer(key.key) });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({
      error: { code: 'RESOURCE.NOT_FOUND', ns: 'RESOURCE', message: 'No such thing.', status: 404 },
    });
  });

  it('when the service is called directly without an internal token, or with a partner API key, then it refuses with 401', async () => {
    const bare = await fetch(`${suite.upstream.url}/portal/things`);
    expect(bare.status).toBe(401);
    expect(await json(bare)).toEqual(envelope('AUTH.API_KEY', 401));
    expect((await fetch(`${suite.upstream.url}/portal/things`, { headers: bearer(key.key) })).status).toBe(401);
  });
});

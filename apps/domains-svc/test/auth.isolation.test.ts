import { randomUUID } from 'node:crypto';
import { createBody, envelope, startDomainsSvc, uniqueHost, type Harness } from './support/harness';

describe('auth and partner isolation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  const routes = (id: string): [string, string, unknown?][] => [
    ['GET', `/portal/domains/${id}`],
    ['PUT', `/portal/domains/${id}`, { has_docs: false }],
    ['DELETE', `/portal/domains/${id}`],
    ['POST', `/portal/domains/${id}/deactivate`],
    ['POST', `/portal/domains/${id}/activate`],
    ['POST', `/portal/domains/${id}/invite`, { send_intro: true }],
    ['GET', `/portal/domains/${id}/subdomains`],
    ['POST', `/portal/domains/${id}/subdomains`, { subdomain: 'shop' }],
    ['DELETE', `/portal/domains/${id}/subdomains/shop`],
    ['DELETE', `/portal/domains/${id}/subdomains`, { subdomain: 'shop' }],
  ];

  it('when a call has no or a bad internal token, then 401 AUTH.API_KEY on every /portal route', async () => {
    const forged = { id: 'x', token: 'not-a-jwt' };
    for (const who of [undefined, forged]) {
      expect((await h.call(who, 'GET', '/portal/domains')).body).toEqual(envelope('AUTH.API_KEY', 401));
      expect((await h.call(who, 'POST', '/portal/domains', createBody(uniqueHost()))).status).toBe(401);
      for (const [method, path, body] of routes(randomUUID()))
        expect((await h.call(who, method, path, body)).status).toBe(401);
    }
  });

  it("when the token lacks the route's permission, then 403 AUTH.FORBIDDEN names it (the service checks, not only the gateway)", async () => {
    const reader = h.partner([], ['domains:read']);
    const res = await h.call(reader, 'POST', '/portal/domains', createBody(uniqueHost()));
    expect(res.body).toEqual(envelope('AUTH.FORBIDDEN', 403));
    expect(res.body.error.data).toEqual({ required: 'domains:write' });
    expect((await h.call(reader, 'GET', '/portal/domains')).status).toBe(200);
  });

  it("when another partner's domain id, an unknown uuid or a non-uuid is used, then every route answers 404 RESOURCE.NOT_FOUND and nothing changes", async () => {
    const owner = h.partner();
    const intruder = h.partner();
    const d = (await h.call(owner, 'POST', '/portal/domains', createBody(uniqueHost(), { subdomains: ['shop'] }))).body
      .result;
    for (const id of [d.id, randomUUID(), 'not-a-uuid', '1']) {
      for (const [method, path, body] of routes(id)) {
        const res = await h.call(intruder, method, path, body);
        expect({ method, path, body: res.body }).toEqual({ method, path, body: envelope('RESOURCE.NOT_FOUND', 404) });
      }
    }
    expect((await h.call(intruder, 'GET', '/portal/domains')).body.result).toEqual([]);
    expect((await h.call(intruder, 'GET', `/portal/domains?search=${d.id}`)).body.result).toEqual([]);
    expect(await h.outbox(intruder.id)).toEqual([]);
    const still = (await h.call(owner, 'GET', `/portal/domains/${d.id}`)).body.result;
    expect(still).toMatchObject({ status: 'NEW', has_docs: true });
    expect((await h.call(owner, 'GET', `/portal/domains/${d.id}/subdomains`)).body.result).toHaveLength(1);
  });

  it('when an unknown /portal path is called with a valid token, then 404 ROUTE.NOT_FOUND', async () => {
    expect((await h.call(h.partner(), 'GET', '/portal/nothing')).body).toEqual(envelope('ROUTE.NOT_FOUND', 404));
  });
});

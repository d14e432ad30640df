import { bearer, envelope, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

describe('breakers per upstream and per (partner, upstream)', () => {
  let suite: Suite;
  let key: string;
  let otherKey: string;
  const gateways: Gateway[] = [];

  beforeAll(async () => {
    suite = await startSuite();
    key = (await suite.key(await suite.partner())).key;
    otherKey = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await suite?.close();
  });

  const fresh = async () => {
    const g = await startGateway(suite.env);
    gateways.push(g);
    return g;
  };
  const post = (g: Gateway, name: string) =>
    fetch(`${g.url}/portal/things`, {
      method: 'POST',
      headers: bearer(key, { 'content-type': 'application/json' }),
      body: JSON.stringify({ name }),
    });
  const list = (g: Gateway, as = key) => fetch(`${g.url}/portal/things`, { headers: bearer(as) });

  it('when a service answers 500 to many requests, then the breaker stays closed, other requests pass, and each 500 is counted', async () => {
    const g = await fresh();
    for (let i = 0; i < 30; i++) expect((await post(g, 'answer-500')).status).toBe(500);
    const res = await list(g);
    expect(res.status).toBe(200);
    const metrics = await (await fetch(`${g.adminUrl}/metrics`)).text();
    expect(metrics).toContain('gateway_upstream_server_errors_total{upstream="domains",service="gateway"} 30');
    expect(metrics).toContain(
      'http_requests_total{operation="createThing",method="POST",status="500",service="gateway"} 30',
    );
    expect(metrics).toContain(
      'http_requests_total{operation="listThings",method="GET",status="200",service="gateway"} 1',
    );
  });

  it('when a service answers one partner 503 in the envelope many times, then only that partner is refused without reaching it; another partner passes', async () => {
    const g = await fresh();
    for (let i = 0; i < 30; i++) await post(g, 'answer-503');
    const refused = await list(g);
    expect(refused.status).toBe(503);
    const body = await json(refused);
    expect(body).toEqual(envelope('SERVICE.UNAVAILABLE', 503));
    expect(body.error.message).toBe(
      'Your recent calls to the domains service timed out or found it unavailable; retry in a few seconds.',
    );
    expect((await list(g, otherKey)).status).toBe(200);
  });
});

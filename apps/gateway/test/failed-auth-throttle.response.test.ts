import { startGateway, startSuite, bearer, envelope, type Gateway, type Suite, json } from './support/harness';

const LIMIT = 5;
const randomKey = () => `pdm_live_${Math.random().toString(36).slice(2, 14).padEnd(12, 'A')}_${'b'.repeat(40)}`;

describe('failed authentication is throttled per client address', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;

  beforeAll(async () => {
    suite = await startSuite();
    // Behind a trusted proxy (loopback), so X-Forwarded-For names the client address.
    gateway = await startGateway({
      ...suite.env,
      AUTH_FAILURES_PER_MINUTE: String(LIMIT),
      TRUSTED_PROXIES: 'loopback',
    });
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  const get = (from: string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}/portal/things`, { headers: { 'x-forwarded-for': from, ...headers } });

  it('when one address sends more bad keys than the limit, then it gets 429 with Retry-After, while its valid key and other addresses are unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await get('198.51.100.1', bearer(randomKey()))).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    const throttled = await get('198.51.100.1', bearer(randomKey()));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(throttled.headers.get('www-authenticate')).toBeNull();
    expect(await json(throttled)).toEqual(envelope('RATE.LIMITED', 429));
    // A missing key counts as a failure too.
    expect((await get('198.51.100.1')).status).toBe(429);
    expect((await get('198.51.100.1', bearer(key))).status).toBe(200);
    expect((await get('198.51.100.2', bearer(randomKey()))).status).toBe(401);
    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    expect(metrics).toContain('gateway_auth_failures_total{answer="429",service="gateway"} 2');
  });

  it('when one address floods unknown keys from many connections at once, then exactly the limit get 401 and every other 429 RATE.LIMITED with Retry-After, while its valid key keeps getting 200 all through', async () => {
    const [from, badKeys, connections] = ['198.51.100.7', 60, 10];
    const bad: { status: number; retryAfter: string | null; body: unknown }[] = [];
    const valid: number[] = [];
    let sent = 0;
    const flood = async () => {
      while (sent < badKeys) {
        sent++;
        const res = await get(from, bearer(randomKey()));
        bad.push({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await json(res) });
      }
    };
    const flooding = Promise.all(Array.from({ length: connections }, flood));
    // The partner's own key, from the same address, all through the flood.
    while (sent < badKeys) valid.push((await get(from, bearer(key))).status);
    await flooding;
    for (let i = 0; i < 5; i++) valid.push((await get(from, bearer(key))).status);

    expect(bad.filter((r) => r.status === 401)).toHaveLength(LIMIT);
    const throttled = bad.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(badKeys - LIMIT);
    for (const r of throttled) {
      expect(r.body).toEqual(envelope('RATE.LIMITED', 429));
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(60);
    }
    expect(valid.length).toBeGreaterThan(5);
    expect(new Set(valid)).toEqual(new Set([200]));
    // A missing key is a failed authentication too.
    const missing = await get(from);
    expect([missing.status, await json(missing)]).toEqual([429, envelope('RATE.LIMITED', 429)]);
  });
});

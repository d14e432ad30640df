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
});

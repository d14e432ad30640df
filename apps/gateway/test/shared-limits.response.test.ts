import { uniqueName, waitFor } from '@platform/testing';
import { bearer, json, startGateway, startSuite, type Gateway, type Suite } from './support/harness';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PER_MINUTE = 12;
const AUTH_FAILURES = 4;
const SHARE = 4;
const randomKey = () => `pdm_live_${Math.random().toString(36).slice(2, 14).padEnd(12, 'A')}_${'b'.repeat(40)}`;

describe('two gateways sharing limits through Redis (REDIS_URL)', () => {
  let suite: Suite;
  let gateways: Gateway[];

  beforeAll(async () => {
    suite = await startSuite();
    // One prefix per run, so parallel runs on the same Redis never share a budget.
    const env = {
      ...suite.env,
      REDIS_URL,
      REDIS_KEY_PREFIX: `${uniqueName('gw')}:`,
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
      FAIR_SHARE_MAX_IN_FLIGHT: String(SHARE),
      // No borrowing past the share: a lone partner is held to it.
      FAIR_SHARE_SERVICE_MAX_IN_FLIGHT: String(SHARE),
      FAIR_SHARE_MAX_QUEUED: '0',
    };
    gateways = [await startGateway(env), await startGateway(env)];
    // Each counts the other once both have sent a heartbeat.
    for (const g of gateways) await g.deps.coordination!.replicas.beat();
    await gateways[0].deps.coordination!.replicas.beat();
  });
  afterAll(async () => {
    suite?.upstream.release();
    for (const g of gateways ?? []) await g.close();
    await suite?.close();
  });

  it("when a key's calls alternate between the gateways, then together they allow its budget once, not once each", async () => {
    const key = (await suite.key(await suite.partner())).key;
    const answers: { status: number; rateLimit: string | null }[] = [];
    for (let i = 0; i < PER_MINUTE + 4; i++) {
      const res = await fetch(`${gateways[i % 2].url}/portal/things`, { headers: bearer(key) });
      answers.push({ status: res.status, rateLimit: res.headers.get('ratelimit') });
    }
    // The whole minute may be spent at once (a burst of 12 for limits up to 60); at 1 unit per 5 s, none come back meanwhile.
    expect(answers.map((a) => a.status)).toEqual([...Array(PER_MINUTE).fill(200), 429, 429, 429, 429]);
    expect(answers[0].rateLimit).toBe(`"${PER_MINUTE}-in-1min"; r=${PER_MINUTE - 1}; t=5`);
    expect(answers[1].rateLimit).toBe(`"${PER_MINUTE}-in-1min"; r=${PER_MINUTE - 2}; t=10`);
    const metrics = await (await fetch(`${gateways[1].adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/^gateway_limits_shared\{service="gateway"\} 1$/m);
    expect(metrics).toMatch(/^gateway_replicas_live\{service="gateway"\} 2$/m);
  });

  it('when one address fails authentication at both gateways, then the failures count once: past the limit either answers 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURES + 2; i++)
      statuses.push((await fetch(`${gateways[i % 2].url}/portal/things`, { headers: bearer(randomKey()) })).status);
    expect(statuses).toEqual([...Array(AUTH_FAILURES).fill(401), 429, 429]);
  });

  it("when a partner's calls are stuck in the service, then each of the two gateways holds only half its fair share there", async () => {
    const key = (await suite.key(await suite.partner())).key;
    const { upstream } = suite;
    const hold = (g: Gateway, i: number) =>
      fetch(`${g.url}/portal/things`, {
        method: 'POST',
        headers: bearer(key, { 'content-type': 'application/json' }),
        body: JSON.stringify({ name: `hold ${i}` }),
      });
    // Writes cost 2: 12 units are 6 calls, 3 at each gateway.
    const refused: number[] = [];
    const calls = [0, 1, 2, 3, 4, 5].map(async (i) => {
      const res = await hold(gateways[i % 2], i);
      if (res.status === 429) refused.push(i % 2);
      return { status: res.status, body: await json(res) };
    });
    // Each gateway lets SHARE / 2 through and refuses its third at once (no queue).
    await waitFor(() => refused.length >= 2 && upstream.held() >= SHARE, { what: 'two refused, the rest held' });
    expect(upstream.held()).toBe(SHARE);
    expect(refused.sort()).toEqual([0, 1]);
    upstream.release();
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SHARE);
  });
});

import type { ExtraInstance } from '@platform/launcher';
import { uniqueName, waitFor } from '@platform/testing';
import { startHaproxy, type Haproxy } from './support/haproxy';
import { startSystem, type OwnSystem, type Partner } from './support/system';

// Three gateways behind HAProxy, sharing their limits through Redis: a partner sees one gateway.
const BUDGET = 200;
const AUTH_FAILURES = 30;
const FAIR_SHARE = 3;
const GATEWAYS = 3;

let sys: OwnSystem;
let extras: ExtraInstance[];
let proxy: Haproxy;
/** Created before the load, one per test (each counts its own budget). */
let partners: Partner[];

beforeAll(async () => {
  sys = await startSystem({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `${uniqueName('e2e')}:`,
    RATE_LIMIT_PER_MINUTE: String(BUDGET),
    RATE_LIMIT_BURST: String(BUDGET),
    AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
    FAIR_SHARE_MAX_IN_FLIGHT: String(FAIR_SHARE),
    // No borrowing past the share: a lone partner is held to it.
    FAIR_SHARE_SERVICE_MAX_IN_FLIGHT: String(FAIR_SHARE),
    FAIR_SHARE_MAX_QUEUED: '0',
    // Nine processes on one PostgreSQL: small pools leave connections for whatever else runs on it.
    DB_POOL_MAX: '4',
  });
  partners = [];
  for (let i = 0; i < 4; i++) partners.push(await sys.partner());
  extras = [await sys.platform.startInstance('gateway'), await sys.platform.startInstance('gateway')];
  const backends = [{ url: sys.urls.gateway, adminUrl: sys.adminUrls.gateway }, ...extras];
  proxy = await startHaproxy(backends);
  // Every gateway counts the three of them (a heartbeat each 5 s) before its fair share is split.
  await waitFor(
    async () => {
      const counts = await Promise.all(
        backends.map(
          async (b) =>
            (await (await fetch(`${b.adminUrl}/metrics`)).text()).match(/^gateway_replicas_live\{[^}]*\} (\d+)$/m)?.[1],
        ),
      );
      return counts.every((c) => c === String(GATEWAYS));
    },
    { timeoutMs: 20_000, what: 'every gateway to count three' },
  );
});
afterAll(async () => {
  await proxy?.stop();
  await sys?.close();
});

/** A cheap call with the key: rate limited by its cost (1), then 404 (no such route), never forwarded. */
const cheap = (base: string, key: string) =>
  fetch(`${base}/portal/no-such-thing`, { headers: { authorization: `Bearer ${key}` } }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });

/** Calls until the first 429: how many were allowed. */
async function allowedUntilRefused(base: string, key: string): Promise<number> {
  for (let allowed = 0; allowed < BUDGET * GATEWAYS; allowed++) if ((await cheap(base, key)) === 429) return allowed;
  throw new Error('never refused');
}

describe('three gateways behind HAProxy, limits shared through Redis', () => {
  it('when a key spends its budget through the proxy, then it gets what one gateway gives (within 10%), not three times it', async () => {
    const [throughProxy, throughOne] = partners;
    const proxied = await allowedUntilRefused(proxy.url, throughProxy.key);
    const direct = await allowedUntilRefused(sys.gateway, throughOne.key);
    // The burst, and what refilled (BUDGET a minute) while the calls ran.
    expect(direct).toBeGreaterThanOrEqual(BUDGET);
    expect(Math.abs(proxied - direct)).toBeLessThanOrEqual(direct * 0.1);
  });

  it('when one address sends bad keys through the proxy, then the same count as at one gateway is answered 401 and the next 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_FAILURES; i++)
      statuses.push(await cheap(proxy.url, `pdm_live_${'x'.repeat(12)}_${'b'.repeat(40)}`));
    expect(statuses).toEqual([...Array(AUTH_FAILURES).fill(401), 429]);
  });

  it("when a partner's calls are stuck in a service, then the three gateways together hold at most its fair share there, and refuse the rest", async () => {
    const partner = partners[2];
    const db = await sys.db();
    // The service's reads wait behind this lock, the way a slow query would.
    await db.query('BEGIN');
    await db.query('LOCK TABLE domains.domains IN ACCESS EXCLUSIVE MODE');
    const settled: string[] = [];
    const calls = Array.from({ length: 3 * GATEWAYS }, () =>
      fetch(`${proxy.url}/portal/domains`, { headers: { authorization: `Bearer ${partner.key}` } }).then(async (r) => {
        const body = (await r.json()) as { error?: { message: string } };
        // The fair share's refusal, not the rate limit's: "Too many of your calls are in flight ...".
        settled.push(`${r.status} ${/in flight/.test(body.error?.message ?? '') ? 'in flight' : ''}`);
        return r.status;
      }),
    );
    try {
      await waitFor(() => settled.length >= 3 * GATEWAYS - FAIR_SHARE, {
        what: 'the calls past the fair share refused',
      });
      expect(settled).toEqual(Array(3 * GATEWAYS - FAIR_SHARE).fill('429 in flight'));
    } finally {
      await db.query('ROLLBACK');
    }
    expect((await Promise.all(calls)).filter((s) => s === 200)).toHaveLength(FAIR_SHARE);
  });

  it('when a gateway is killed under load, then only the calls it held fail; the others go on through the rest', async () => {
    const partner = partners[3];
    const total = 150;
    const [sent, answered, failures] = [{ n: 0 }, { n: 0 }, [] as string[]];
    let inFlightAtKill: number | undefined;
    const worker = async () => {
      while (sent.n < total) {
        sent.n++;
        const status = await cheap(proxy.url, partner.key).catch((err: Error) => err.message);
        answered.n++;
        if (status !== 404) failures.push(String(status));
        if (answered.n === total / 3 && inFlightAtKill === undefined) {
          inFlightAtKill = sent.n - answered.n;
          extras[1].process.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(inFlightAtKill).toBeDefined();
    expect(failures.length).toBeLessThanOrEqual(inFlightAtKill!);
    expect(answered.n).toBe(total);
  });
});

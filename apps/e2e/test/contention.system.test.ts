import { sharedSystem, type Partner, type System } from './support/system';

/** How long the contended traffic runs, and its shape: 8+8 connections is what gave 500s and an open breaker. */
const RUN_MS = 12_000;
const CONNECTIONS_PER_KEY = 8;
const DOMAINS = 100;

interface Tally {
  statuses: Map<number, number>;
  /** Non-2xx answers counted by "status code what", so a failure reads as a short list. */
  failures: Record<string, number>;
}

const tally = (): Tally => ({ statuses: new Map(), failures: {} });

/** Runs `step` in a loop until the deadline, counting every answer's status. */
async function loop(until: number, step: () => Promise<{ status: number; what: string; body: unknown }>, into: Tally) {
  while (Date.now() < until) {
    const res = await step();
    into.statuses.set(res.status, (into.statuses.get(res.status) ?? 0) + 1);
    const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
    const name = `${res.status} ${code ?? '-'} ${res.what}`;
    if (res.status >= 300) into.failures[name] = (into.failures[name] ?? 0) + 1;
  }
}

describe('write contention on one partner never spreads to another, and never answers 500', () => {
  let sys: System;
  let noisy: Partner;
  let secondKey: Partner;
  let quiet: Partner;
  const domains: string[] = [];
  const quietDomains: string[] = [];

  const createDomain = async (who: Partner, tag: string) => {
    const host = `${tag}-${Math.random().toString(36).slice(2, 10)}.example.com`;
    return (
      await sys.arrange(who, 'POST', '/portal/domains', {
        domain: host,
        company_name: host,
        account_email: `o@${host}`,
        company_setup: true,
      })
    ).body.result.id as string;
  };

  beforeAll(async () => {
    sys = await sharedSystem();
    [noisy, quiet] = await Promise.all([sys.partner(), sys.partner()]);
    secondKey = { id: noisy.id, key: (await sys.admin<{ key: string }>('key', 'create', '--partner', noisy.id)).key };
    // Created eight at a time: the arrange step is not what this test measures.
    for (let i = 0; i < DOMAINS; i += 8)
      domains.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(8, DOMAINS - i) }, () => createDomain(noisy, 'contended')),
        )),
      );
    for (let i = 0; i < 3; i++) quietDomains.push(await createDomain(quiet, 'quiet'));
  });
  afterAll(() => sys?.close());

  it('when two keys of one partner run opposite bulk product changes over the same domains, then the other partner sees only 2xx and the first no 500', async () => {
    const until = Date.now() + RUN_MS;
    // Opposite values in opposite orders: the shape that deadlocks when rows are locked in the order given.
    const upward = domains.map((id) => ({ id, product: 'PRO', price_list: 'STANDARD' }));
    const downward = [...domains].reverse().map((id) => ({ id, product: 'ENTERPRISE', price_list: 'STANDARD' }));
    const bulk = (who: Partner, entries: unknown[]) => async () => {
      const res = await sys.call(who, 'POST', '/portal/domains/bulk/subscription/product', { domains: entries });
      return { status: res.status, what: 'bulk change', body: res.body };
    };
    let reads = 0;
    const quietRead = async () => {
      const id = quietDomains[reads++ % quietDomains.length];
      const [what, res] =
        reads % 2
          ? ['get by id', await sys.call(quiet, 'GET', `/portal/domains/${id}`)]
          : ['list', await sys.call(quiet, 'GET', '/portal/domains?limit=10')];
      return { status: res.status, what, body: res.body };
    };
    let writes = 0;
    // Its own writes go to the same services (domains-svc, then billing-svc) as the contended ones.
    const quietWrite = async () => {
      const id = quietDomains[writes++ % quietDomains.length];
      if (writes % 4 === 0) {
        const host = `quiet-${Math.random().toString(36).slice(2, 10)}.example.com`;
        const res = await sys.call(quiet, 'POST', '/portal/domains', {
          domain: host,
          company_name: host,
          account_email: `o@${host}`,
        });
        return { status: res.status, what: 'create', body: res.body };
      }
      const res = await sys.call(quiet, 'POST', `/portal/domains/${id}/subscription/product`, {
        product: writes % 2 ? 'PRO' : 'FREE',
        price_list: 'STANDARD',
      });
      return { status: res.status, what: 'product change', body: res.body };
    };
    const noisyTally = tally();
    const quietTally = tally();
    await Promise.all([
      ...Array.from({ length: CONNECTIONS_PER_KEY }, () => loop(until, bulk(noisy, upward), noisyTally)),
      ...Array.from({ length: CONNECTIONS_PER_KEY }, () => loop(until, bulk(secondKey, downward), noisyTally)),
      loop(until, quietRead, quietTally),
      loop(until, quietWrite, quietTally),
    ]);

    // The load really ran and really contended: both partners got answers, the noisy one changed products.
    expect(noisyTally.statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(quietTally.statuses.get(200) ?? 0).toBeGreaterThan(20);
    const noisy500 = Object.keys(noisyTally.failures).filter((name) => name.startsWith('500 '));
    expect({
      quiet: quietTally.failures,
      noisy500: Object.fromEntries(noisy500.map((name) => [name, noisyTally.failures[name]])),
    }).toEqual({ quiet: {}, noisy500: {} });
  });
});

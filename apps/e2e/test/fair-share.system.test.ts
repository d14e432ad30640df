import { waitFor } from '@platform/testing';
import { Client } from 'pg';
import { envelope, startSystem, type ApiResponse, type OwnSystem, type Partner } from './support/system';

const SHARE = 4;
const FLOOD = 40;

/** domains-svc backends waiting on the row lock in an update's FOR UPDATE (not, say, a consumer's projection write). */
const lockWaiters = async (db: Client) =>
  Number(
    (
      await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'domains' AND wait_event_type = 'Lock'
            AND query ILIKE '%primary_color%for update%'`,
      )
    ).rows[0].n,
  );

describe("fair share: one partner's flood waits in its own line at the gateway", () => {
  let sys: OwnSystem;
  let a: Partner;
  let b: Partner;
  let aDomain: string;
  let bDomain: string;

  beforeAll(async () => {
    sys = await startSystem({
      FAIR_SHARE_MAX_IN_FLIGHT: String(SHARE),
      FAIR_SHARE_QUEUE_TIMEOUT_MS: '1000',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    [a, b] = [await sys.partner(), await sys.partner()];
    const create = (p: Partner, name: string) =>
      sys.arrange(p, 'POST', '/portal/domains', {
        domain: `${name}-${Date.now()}.example.com`,
        company_name: 'Fair Co',
        account_email: 'owner@example.com',
      });
    aDomain = (await create(a, 'reader')).body.result.id;
    bDomain = (await create(b, 'flooder')).body.result.id;
  });
  afterAll(() => sys?.close());

  it(`when partner B has ${FLOOD} updates stuck in domains-svc, then B holds only ${SHARE} of its connections, partner A's read is answered at once, and B's waiting calls get 429 RATE.LIMITED with Retry-After after the queue deadline`, async () => {
    // The test holds B's domain row: each of B's updates that reaches domains-svc waits on it with
    // one of the service's database connections, the way a slow dependency or a lock would hold it.
    const lock = await sys.db();
    // Watched from another connection: inside a transaction pg_stat_activity is a snapshot.
    const watcher = new Client({ connectionString: sys.databaseUrl });
    await watcher.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT id FROM domains.domains WHERE id = $1 FOR UPDATE', [bDomain]);
    let answers: Promise<ApiResponse[]> | undefined;
    try {
      const settled: ApiResponse[] = [];
      answers = Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          sys
            .call(b, 'PUT', `/portal/domains/${bDomain}`, { primary_color: `#0000${String(i).padStart(2, '0')}` })
            .then((r) => (settled.push(r), r)),
        ),
      );
      await waitFor(async () => (await lockWaiters(watcher)) >= SHARE, {
        what: `${SHARE} of B's updates waiting on the row lock`,
      });

      const started = Date.now();
      const read = await sys.call(a, 'GET', `/portal/domains/${aDomain}`);
      const readMs = Date.now() - started;
      expect({ status: read.status, fast: readMs < 1000 }).toEqual({ status: 200, fast: true });
      expect(await lockWaiters(watcher)).toBe(SHARE);

      // The calls beyond B's share wait in B's queue for at most FAIR_SHARE_QUEUE_TIMEOUT_MS.
      await waitFor(() => settled.length >= FLOOD - SHARE, { what: "B's queued calls to be refused" });
      expect(settled.map((r) => r.status)).toEqual(Array(FLOOD - SHARE).fill(429));
      expect(settled[0].body).toEqual(envelope('RATE.LIMITED', 429));
      expect(settled[0].headers.get('retry-after')).toBe('1');
    } finally {
      await lock.query('COMMIT');
      await watcher.end();
    }
    // B's calls that held a slot finish once the row is free.
    const statuses = (await answers).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(SHARE);
  });
});

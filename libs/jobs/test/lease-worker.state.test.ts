import { sql } from '@platform/db';
import { waitFor } from '@platform/testing';
import { claimWithLease, LeaseWorker, type LeaseWorkerOptions } from '../src';
import { gate, logger, setupJobsDb, type JobsDb } from './support';

let t: JobsDb;
beforeAll(async () => {
  t = await setupJobsDb('jobs_lease_worker');
});
afterAll(() => t.close());

type Row = { id: number };
const CHANNEL = 'work_due';
const LEASE_MS = 60_000;

/** Due rows of work.leased in lane `lane`, claimed the way the services claim (SKIP LOCKED + lease_until). */
const claimLane = (lane: string) => (limit: number, now: Date) =>
  claimWithLease<Row>(t.db, {
    table: 'leased',
    dueColumn: 'due_at',
    leaseColumn: 'lease_until',
    now,
    leaseMs: LEASE_MS,
    limit,
    where: sql`lane = ${lane}`,
  });

const insert = async (ids: number[], lane: string, notify = false) => {
  await t.db.transaction().execute(async (trx) => {
    for (const id of ids)
      await sql`INSERT INTO work.leased (id, due_at, lane) VALUES (${id}, now(), ${lane})`.execute(trx);
    if (notify) await sql`SELECT pg_notify(${CHANNEL}, '')`.execute(trx);
  });
};

function worker(lane: string, overrides: Partial<LeaseWorkerOptions<Row, 'main'>> = {}) {
  const ran: number[] = [];
  const w = new LeaseWorker<Row, 'main'>({
    name: 'test worker',
    logger,
    lanes: { main: { concurrency: 2, claim: claimLane(lane) } },
    run: async ({ item }) => void ran.push(item.id),
    leaseMs: LEASE_MS,
    maxRunMs: 1_000,
    pollMs: 3_600_000,
    listen: { channel: CHANNEL, connection: { connectionString: t.url } },
    ...overrides,
  });
  return { w, ran };
}

describe('LeaseWorker', () => {
  it('when a commit NOTIFYs the channel, then the due rows are claimed and run at once, not at the next poll', async () => {
    const { w, ran } = worker('notified');
    w.start();
    try {
      // Its LISTEN is in place (the first poll, at start, found nothing; the next is an hour away).
      await waitFor(
        async () =>
          (
            await sql<{
              n: number;
            }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE ${`LISTEN%${CHANNEL}%`}`.execute(
              t.observer,
            )
          ).rows[0].n > 0,
        { what: 'the LISTEN' },
      );
      await insert([101, 102, 103], 'notified', true);
      await waitFor(async () => ran.length === 3, { what: 'three runs' });
      expect([...ran].sort()).toEqual([101, 102, 103]);
    } finally {
      await w.stop();
    }
  });

  it('when it stops, then the runs in flight see their signal aborted and what was claimed but not started is handed back', async () => {
    const handedBack: number[] = [];
    const release = gate();
    const aborted: number[] = [];
    const { w } = worker('stopping', {
      lanes: { main: { concurrency: 1, claim: claimLane('stopping') } },
      run: async ({ item }, _lane, signal) => {
        await Promise.race([release.opened, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
        if (signal.aborted) aborted.push(item.id);
      },
      handBack: async (items) => void handedBack.push(...items.map((i) => i.id)),
    });
    await insert([201], 'stopping');
    w.start();
    await waitFor(async () => w.inFlight === 1, { what: 'one run in flight' });
    // Handed over by another path (e.g. a consumer's transaction), queued behind the running one.
    w.accept('main', [{ id: 202 }, { id: 203 }]);
    await w.stop();
    expect(aborted).toEqual([201]);
    expect(handedBack).toEqual([202, 203]);
  });

  it("when an item's lease would end before its run could, then it is not run and the worker says so", async () => {
    let now = Date.now();
    const tooShort: number[] = [];
    const { w, ran } = worker('lease', {
      clock: { now: () => new Date(now) },
      onLeaseTooShort: (item) => void tooShort.push(item.id),
    });
    w.start();
    try {
      const held = { id: 301 };
      w.accept('main', [held]);
      await w.idle();
      expect(ran).toEqual([301]);
      // Held since long enough that its lease ends within maxRunMs.
      now += LEASE_MS - 500;
      w.resume('main', { item: { id: 302 }, leaseEndsAt: now + 500 });
      await w.idle();
      expect(ran).toEqual([301]);
      expect(tooShort).toEqual([302]);
    } finally {
      await w.stop();
    }
  });
});

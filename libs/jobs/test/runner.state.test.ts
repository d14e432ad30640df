import { createDb, migrateToLatest, sql, type Kysely } from '@platform/db';
import { aggregateVersionsMigration, consumerMigration, outboxMigration, writeOutbox } from '@platform/messaging';
import { createLogger } from '@platform/observability';
import { createTestDatabase } from '@platform/testing';
import { claimDue, JobRunner, pruneChassisTables, type Clock } from '../src';

const logger = createLogger('jobs-test', 'silent');
const T0 = new Date('2026-01-01T00:00:00Z').getTime();
const MINUTE = 60_000;

/** A clock the test moves by hand. */
const movable = (start = T0) => {
  let at = start;
  const clock: Clock = { now: () => new Date(at) };
  return { clock, move: (ms: number) => (at += ms) };
};

describe('job runner', () => {
  let db: Kysely<unknown>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase('jobs');
    drop = database.drop;
    db = createDb<unknown>({ url: database.url, schema: 'work', max: 8 }).db;
    await migrateToLatest(db, 'work', {
      '001_outbox': outboxMigration('work'),
      '002_versions': aggregateVersionsMigration('work'),
      '003_processed': consumerMigration('work'),
      '004_items': {
        up: async (d) => {
          await sql`CREATE TABLE work.items (id int PRIMARY KEY, due_at timestamptz NOT NULL, done_by text[] NOT NULL DEFAULT '{}')`.execute(d);
        },
      },
    });
  });
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  it('when two runners tick at the same moments of a moved clock, then each due item is processed exactly once, when it is due', async () => {
    await sql`INSERT INTO work.items (id, due_at) VALUES (1, ${new Date(T0 + MINUTE)}), (2, ${new Date(T0 + 2 * MINUTE)}), (3, ${new Date(T0 + 2 * MINUTE)})`.execute(db);
    const { clock, move } = movable();
    const runner = (name: string) =>
      new JobRunner({ db, logger, clock }).every({
        name: 'process-items',
        intervalMs: 1_000,
        run: async ({ db: d, now }) => {
          const claimed = await claimDue<{ id: number }>(d, { schema: 'work', table: 'items', dueColumn: 'due_at', now, leaseMs: 10 * MINUTE, limit: 10, where: sql`cardinality(done_by) = 0` });
          for (const item of claimed) await sql`UPDATE work.items SET done_by = done_by || ${name}::text WHERE id = ${item.id}`.execute(d);
        },
      });
    const a = runner('a');
    const b = runner('b');
    const doneBy = async () => (await sql<{ id: number; done_by: string[] }>`SELECT id, done_by FROM work.items ORDER BY id`.execute(db)).rows;

    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([0, 0, 0]);
    move(90_000);
    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([1, 0, 0]);
    move(60_000);
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    expect((await doneBy()).map((r) => r.done_by.length)).toEqual([1, 1, 1]);
  });

  it('when a claimed item is never finished (its runner crashed), then it is due again once its lease ends', async () => {
    await sql`INSERT INTO work.items (id, due_at) VALUES (10, ${new Date(T0)})`.execute(db);
    const claim = (now: Date) => claimDue<{ id: number }>(db, { schema: 'work', table: 'items', dueColumn: 'due_at', now, leaseMs: MINUTE, limit: 10, where: sql`id = 10` });
    expect((await claim(new Date(T0))).map((r) => r.id)).toEqual([10]);
    expect(await claim(new Date(T0 + 30_000))).toEqual([]);
    expect((await claim(new Date(T0 + 61_000))).map((r) => r.id)).toEqual([10]);
  });

  it('when a singleton job is due in two runners at once, then only one runs it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inside = 0;
    let maxInside = 0;
    let runs = 0;
    const runner = () =>
      new JobRunner({ db, logger }).every({
        name: 'housekeeping',
        intervalMs: 1_000,
        singleton: true,
        run: async () => {
          runs += 1;
          inside += 1;
          maxInside = Math.max(maxInside, inside);
          await gate;
          inside -= 1;
        },
      });
    const a = runner();
    const b = runner();
    const first = a.tick();
    // b ticks while a holds the lock inside its run.
    await new Promise((r) => setImmediate(r));
    while (inside === 0) await new Promise((r) => setImmediate(r));
    await b.tick();
    release();
    await first;
    expect({ runs, maxInside }).toEqual({ runs: 1, maxInside: 1 });
  });

  it('when a run passes its deadline, then it is abandoned and reported, and the next run still happens', async () => {
    const outcomes: string[] = [];
    const { clock, move } = movable();
    let calls = 0;
    const runner = new JobRunner({ db, logger, clock, onRun: (_job, outcome) => outcomes.push(outcome) }).every({
      name: 'slow',
      intervalMs: 1_000,
      deadlineMs: 50,
      run: async ({ signal }) => {
        calls += 1;
        if (calls === 1) await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    });
    await runner.tick();
    move(1_000);
    await runner.tick();
    expect(outcomes).toEqual(['deadline', 'ok']);
  });

  it('when prune runs, then published events and processed ids past their retention go, unpublished and recent ones stay', async () => {
    await db.transaction().execute((trx) =>
      writeOutbox(trx, 'work', 'test', ['old', 'recent', 'pending'].map((n) => ({ partnerId: 'p', aggregateId: n, payload: { event: 'test.happened', params: { n } } }))),
    );
    const now = new Date();
    await sql`UPDATE work.outbox SET published_at = ${new Date(now.getTime() - 8 * 24 * 3_600_000)} WHERE message->'payload'->'params'->>'n' = 'old'`.execute(db);
    await sql`UPDATE work.outbox SET published_at = ${new Date(now.getTime() - 3_600_000)} WHERE message->'payload'->'params'->>'n' = 'recent'`.execute(db);
    await sql`INSERT INTO work.processed_messages (consumer, message_id, processed_at) VALUES ('q', 'old', ${new Date(now.getTime() - 8 * 24 * 3_600_000)}), ('q', 'new', ${now})`.execute(db);

    const result = await pruneChassisTables('work', { outboxMs: 7 * 24 * 3_600_000, processedMs: 7 * 24 * 3_600_000 })(db, now);
    expect(result).toEqual({ outbox: 1, processed: 1 });
    const left = await sql<{ n: string }>`SELECT message->'payload'->'params'->>'n' AS n FROM work.outbox ORDER BY 1`.execute(db);
    expect(left.rows.map((r) => r.n)).toEqual(['pending', 'recent']);
    const ids = await sql<{ message_id: string }>`SELECT message_id FROM work.processed_messages`.execute(db);
    expect(ids.rows.map((r) => r.message_id)).toEqual(['new']);
  });
});

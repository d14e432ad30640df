import { inTransaction, sql } from '@platform/db';
import { writeOutbox } from '@platform/messaging';
import { deleteInBatches, JobRunner, pruneChassisTables } from '../src';
import { logger, setupJobsDb, type JobsDb } from './support';

const DAY = 24 * 3_600_000;
const WEEK = 7 * DAY;

let t: JobsDb;
beforeAll(async () => {
  t = await setupJobsDb('jobs_prune');
});
afterAll(() => t.close());
beforeEach(async () => {
  await sql`TRUNCATE work.outbox, work.processed_messages, work.items`.execute(t.db);
});

/** Outbox rows named by n, published the given time before now (null: not published). */
async function outboxRows(now: Date, rows: Record<string, number | null>) {
  await inTransaction(t.db, (trx) =>
    writeOutbox(
      trx,
      'work',
      'test',
      Object.keys(rows).map((n) => ({
        partnerId: 'p',
        aggregateId: n,
        payload: { event: 'test.happened', params: { n } },
      })),
    ),
  );
  for (const [n, ago] of Object.entries(rows)) {
    const publishedAt = ago === null ? null : new Date(now.getTime() - ago);
    await sql`UPDATE work.outbox SET published_at = ${publishedAt}, created_at = ${new Date(now.getTime() - 30 * DAY)} WHERE message->'payload'->'params'->>'n' = ${n}`.execute(
      t.db,
    );
  }
}
const outboxLeft = async () =>
  (
    await sql<{ n: string }>`SELECT message->'payload'->'params'->>'n' AS n FROM work.outbox ORDER BY 1`.execute(t.db)
  ).rows.map((r) => r.n);

describe('prune jobs', () => {
  it('when the chassis prune runs, then published events and processed ids past their retention go; unpublished, however old, and recent ones stay', async () => {
    const now = new Date();
    await outboxRows(now, { old: WEEK + DAY, recent: 3_600_000, pending: null });
    await sql`INSERT INTO work.processed_messages (consumer, message_id, processed_at) VALUES ('q', 'old', ${new Date(now.getTime() - WEEK - DAY)}), ('q', 'new', ${now})`.execute(
      t.db,
    );

    const result = await pruneChassisTables('work', { outboxMs: WEEK, processedMs: WEEK })(t.db, now);

    expect(result).toEqual({ outbox: 1, processed: 1 });
    expect(await outboxLeft()).toEqual(['pending', 'recent']);
    const ids = await sql<{ message_id: string }>`SELECT message_id FROM work.processed_messages`.execute(t.db);
    expect(ids.rows.map((r) => r.message_id)).toEqual(['new']);
  });

  it('when more rows are due than one batch holds, then they go in several bounded statements, each committed before the next', async () => {
    const now = new Date();
    await outboxRows(now, { a: WEEK + 1, b: WEEK + 2, c: WEEK + 3, d: WEEK + 4, e: WEEK + 5, keep: null });
    const statements: string[] = [];
    const seenBetween: number[] = [];
    // Counts what another connection sees before each statement of the prune.
    const counting = t.db.withPlugin({
      transformQuery: (args) => {
        statements.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => {
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM work.outbox`.execute(t.observer);
        seenBetween.push(rows[0].n);
        return args.result;
      },
    });

    const deleted = await deleteInBatches(
      counting,
      { schema: 'work', name: 'outbox' },
      sql`published_at < ${new Date(now.getTime() - WEEK)}`,
      { batch: 2 },
    );

    expect(deleted).toBe(5);
    expect(statements).toHaveLength(3);
    expect(seenBetween).toEqual([4, 2, 1]);
    expect(await outboxLeft()).toEqual(['keep']);
  });

  it('when the prune run is aborted (deadline, shutdown), then it stops between batches and the next run deletes the rest', async () => {
    const now = new Date();
    await outboxRows(now, { a: WEEK + 1, b: WEEK + 2, c: WEEK + 3 });
    const controller = new AbortController();
    const aborting = t.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        controller.abort();
        return args.result;
      },
    });
    const prune = pruneChassisTables('work', { outboxMs: WEEK, processedMs: WEEK }, { batch: 2 });

    expect(await prune(aborting, now, controller.signal)).toEqual({ outbox: 2, processed: 0 });
    expect(await outboxLeft()).toHaveLength(1);
    expect(await prune(t.db, now)).toEqual({ outbox: 1, processed: 0 });
    expect(await outboxLeft()).toEqual([]);
  });

  it('when prune runs as a singleton job of the runner, then it deletes what is past retention by the runner clock', async () => {
    const now = new Date();
    await outboxRows(now, { old: WEEK + DAY, recent: DAY });
    const prune = pruneChassisTables('work', { outboxMs: WEEK, processedMs: WEEK });
    // The runner's clock is two days ahead: "recent" (one day) is still kept, "old" goes.
    const clock = { now: () => new Date(now.getTime() + 2 * DAY) };
    const results: unknown[] = [];
    const runner = new JobRunner({ db: t.db, logger, clock }).every({
      name: 'prune-chassis-tables',
      intervalMs: 60_000,
      singleton: true,
      run: async ({ db, now: at, signal }) => void results.push(await prune(db, at, signal)),
    });
    await runner.tick();
    expect(results).toEqual([{ outbox: 1, processed: 0 }]);
    expect(await outboxLeft()).toEqual(['recent']);
  });
});

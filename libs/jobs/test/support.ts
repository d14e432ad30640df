import { createDb, migrateToLatest, sql, type Kysely } from '@platform/db';
import {
  aggregateVersionsMigration,
  consumerMigration,
  outboxMigration,
  outboxTraceparentMigration,
} from '@platform/messaging';
import { createLogger } from '@platform/observability';
import { createTestDatabase } from '@platform/testing';
import type { Clock, JobOutcome } from '../src';

export const logger = createLogger('jobs-test', process.env.LOG_LEVEL ?? 'silent');
export const T0 = new Date('2026-01-01T00:00:00Z').getTime();
export const MINUTE = 60_000;

/** A clock the test moves by hand. */
export function movableClock(start = T0) {
  let at = start;
  const clock: Clock = { now: () => new Date(at) };
  return { clock, move: (ms: number) => (at += ms), set: (ms: number) => (at = ms) };
}

/** Records every run's outcome by job (the runner's onRun). */
export function outcomes() {
  const seen: { job: string; outcome: JobOutcome }[] = [];
  return {
    onRun: (job: string, outcome: JobOutcome) => void seen.push({ job, outcome }),
    of: (job: string) => seen.filter((s) => s.job === job).map((s) => s.outcome),
  };
}

/** A promise the test resolves when it wants. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export interface JobsDb {
  /** Pool on schema `work` (outbox, processed_messages, items, leased). */
  db: Kysely<unknown>;
  /** A second pool on the same database, to see what the first committed. */
  observer: Kysely<unknown>;
  /** A pool on schema `other` (another service sharing the database). */
  other: Kysely<unknown>;
  /** The test database's URL (e.g. for a LISTEN connection). */
  url: string;
  close(): Promise<void>;
}

export async function setupJobsDb(prefix: string): Promise<JobsDb> {
  const database = await createTestDatabase(prefix);
  const db = createDb<unknown>({ url: database.url, schema: 'work', max: 8 }).db;
  await migrateToLatest(db, 'work', {
    '001_outbox': outboxMigration('work'),
    '001_outbox_traceparent': outboxTraceparentMigration('work'),
    '002_versions': aggregateVersionsMigration('work'),
    '003_processed': consumerMigration('work'),
    '004_items': {
      up: async (d) => {
        await sql`CREATE TABLE work.items (id int PRIMARY KEY, due_at timestamptz NOT NULL, done_by text[] NOT NULL DEFAULT '{}')`.execute(
          d,
        );
      },
    },
    '005_leased': {
      up: async (d) => {
        await sql`CREATE TABLE work.leased (id int PRIMARY KEY, due_at timestamptz NOT NULL, lease_until timestamptz, lane text NOT NULL DEFAULT 'a')`.execute(
          d,
        );
      },
    },
  });
  await sql`CREATE SCHEMA other`.execute(db);
  const observer = createDb<unknown>({ url: database.url, schema: 'work', max: 2 }).db;
  const other = createDb<unknown>({ url: database.url, schema: 'other', max: 4 }).db;
  return {
    db,
    observer,
    other,
    url: database.url,
    async close() {
      await Promise.all([db.destroy(), observer.destroy(), other.destroy()]);
      await database.drop();
    },
  };
}

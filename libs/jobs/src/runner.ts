import { sql, type Kysely, type Transaction } from 'kysely';
import type { Logger } from '@platform/observability';

/** The runner's idea of "now": tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface JobContext<DB> {
  /** Singleton jobs get the transaction that holds their lock; others the pool. */
  db: Kysely<DB>;
  now: Date;
  /** Aborted when the run passes its deadline. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobDefinition<DB> {
  name: string;
  /** Runs every intervalMs (the first run is due at start). */
  intervalMs: number;
  /**
   * At most one run at a time across every process of the service: a PostgreSQL advisory lock
   * held by the run's transaction; a runner that cannot take it skips this turn.
   */
  singleton?: boolean;
  /** A run past this is abandoned (logged, its signal aborted, its SQL cancelled) and the next still comes. */
  deadlineMs?: number;
  run(ctx: JobContext<DB>): Promise<unknown>;
}

export interface JobRunnerOptions<DB> {
  db: Kysely<DB>;
  logger: Logger;
  clock?: Clock;
  /** How often start() checks for due jobs (default: the shortest interval, at most 1 s). */
  tickMs?: number;
  /** Called after every run (metrics). */
  onRun?: (job: string, outcome: 'ok' | 'failed' | 'deadline' | 'skipped', seconds: number) => void;
}

const DEFAULT_DEADLINE_MS = 60_000;

class DeadlineExceeded extends Error {}

/**
 * One runner for a service's periodic and due work. Jobs are due by the injected clock; tick()
 * runs each due job once (tests call it after moving the clock), start() ticks on a timer.
 * Work that claims rows (mail, deliveries) uses claimDue: FOR UPDATE SKIP LOCKED plus a lease,
 * so several runners never take the same row and a crashed runner's rows come back after it.
 */
export class JobRunner<DB> {
  private readonly jobs: { def: JobDefinition<DB>; nextAt: number; running?: Promise<void> }[] = [];
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(private readonly options: JobRunnerOptions<DB>) {
    this.clock = options.clock ?? systemClock;
  }

  every(def: JobDefinition<DB>): this {
    this.jobs.push({ def, nextAt: this.clock.now().getTime() });
    return this;
  }

  get names() {
    return this.jobs.map((j) => j.def.name);
  }

  /** Runs every job that is due now (and not still running from before); resolves when they finish. */
  async tick(): Promise<void> {
    const now = this.clock.now().getTime();
    const due = this.jobs.filter((j) => j.nextAt <= now && !j.running);
    await Promise.all(
      due.map((j) => {
        j.nextAt = now + j.def.intervalMs;
        j.running = this.runOne(j.def).finally(() => (j.running = undefined));
        return j.running;
      }),
    );
  }

  start(): void {
    this.stopped = false;
    const tickMs = this.options.tickMs ?? Math.min(1_000, ...this.jobs.map((j) => j.def.intervalMs));
    const loop = () => {
      if (this.stopped) return;
      void this.tick().finally(() => {
        if (this.stopped) return;
        this.timer = setTimeout(loop, tickMs);
        this.timer.unref();
      });
    };
    loop();
  }

  /** Stops ticking and waits for the runs in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled(this.jobs.map((j) => j.running));
  }

  private async runOne(def: JobDefinition<DB>): Promise<void> {
    const log = this.options.logger.child({ job: def.name });
    const deadlineMs = def.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const controller = new AbortController();
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new DeadlineExceeded(`${def.name} passed its ${deadlineMs} ms deadline`));
      }, deadlineMs);
      timer.unref();
    });
    const ctx = (db: Kysely<DB>): JobContext<DB> => ({ db, now: this.clock.now(), signal: controller.signal, logger: log });
    let outcome: 'ok' | 'failed' | 'deadline' | 'skipped' = 'ok';
    try {
      const work = def.singleton ? this.runSingleton(def, deadlineMs, ctx) : def.run(ctx(this.options.db)).then(() => true);
      const ran = await Promise.race([work, deadline]);
      if (!ran) outcome = 'skipped';
    } catch (err) {
      outcome = err instanceof DeadlineExceeded ? 'deadline' : 'failed';
      if (outcome === 'deadline') log.warn({ deadlineMs }, 'job run abandoned at its deadline');
      else log.error({ err }, 'job run failed');
    } finally {
      clearTimeout(timer);
      this.options.onRun?.(def.name, outcome, (performance.now() - started) / 1000);
    }
  }

  /** False when another process holds the job's lock (this turn is skipped). */
  private async runSingleton(def: JobDefinition<DB>, deadlineMs: number, ctx: (db: Kysely<DB>) => JobContext<DB>): Promise<boolean> {
    return this.options.db.transaction().execute(async (trx: Transaction<DB>) => {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${`job:${def.name}`})) AS locked`.execute(trx);
      if (!rows[0]?.locked) return false;
      // The database side of the deadline: its statements are cancelled too.
      await sql`SELECT set_config('statement_timeout', ${String(deadlineMs)}, true)`.execute(trx);
      await def.run(ctx(trx));
      return true;
    });
  }
}

/**
 * Claims up to `limit` due rows of a table for `leaseMs`: due means `<dueColumn> <= now`; the
 * claim moves that column to now + lease in the same statement (SKIP LOCKED), so other runners
 * skip them and a claim that is never finished becomes due again when the lease ends.
 */
export async function claimDue<Row>(
  db: Kysely<unknown>,
  options: { table: string; schema?: string; dueColumn: string; now: Date; leaseMs: number; limit: number; where?: ReturnType<typeof sql> },
): Promise<Row[]> {
  const table = options.schema ? sql.id(options.schema, options.table) : sql.id(options.table);
  const due = sql.ref(options.dueColumn);
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const { rows } = await sql<Row>`
    UPDATE ${table} SET ${due} = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM ${table}
      WHERE ${due} <= ${options.now} ${options.where ? sql`AND ${options.where}` : sql``}
      ORDER BY ${due} LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return rows;
}

import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { inTransaction } from '@platform/db';
import type { Logger } from '@platform/observability';

/** Any Kysely handle (pool or transaction), whatever its table types: what the helpers run SQL on. */
export type SqlExecutor = QueryExecutorProvider;

/** The runner's idea of "now": tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}
const systemClock: Clock = { now: () => new Date() };

export interface JobContext<DB> {
  /**
   * The service's pool: each statement (or transaction the job opens) commits on its own, so a
   * job that works in batches never holds their locks together. A singleton's lock lives on a
   * separate connection.
   */
  db: Kysely<DB>;
  /** When the run started, by the runner's clock. */
  now: Date;
  /** The runner's clock, for jobs that take several steps (e.g. a lease per claimed row). */
  clock: Clock;
  /** Aborted when the run passes its deadline or the runner stops: stop at the next safe point. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobDefinition<DB> {
  /** Unique per runner; names the job in logs, metrics and its singleton lock. */
  name: string;
  /** A run is due this long after the previous one started (the first is due at start). */
  intervalMs: number;
  /** Each run (the first too) comes up to this much later, at random, so instances started together spread out. */
  jitterMs?: number;
  /**
   * At most one run at a time across every process of the service (same schema): a PostgreSQL
   * advisory lock held for the whole run; a runner that cannot take it skips this turn.
   */
  singleton?: boolean;
  /**
   * The runner gives up on a run after this long (default 60 s): it logs it, reports `deadline`,
   * aborts the run's signal and schedules the next run as usual. A singleton keeps its lock until
   * the abandoned run really ends, so it never overlaps with its next run.
   */
  deadlineMs?: number;
  run(ctx: JobContext<DB>): Promise<unknown>;
}

export type JobOutcome = 'ok' | 'failed' | 'deadline' | 'skipped';

export interface JobRunnerOptions<DB> {
  db: Kysely<DB>;
  logger: Logger;
  clock?: Clock;
  /** How often start() looks for due jobs (default: the shortest interval, at most 1 s). */
  tickMs?: number;
  /** Source of jitter, in [0, 1) (default Math.random). */
  random?: () => number;
  /** Called after every run (metrics); `seconds` is up to the outcome (the deadline, for an abandoned run). */
  onRun?: (job: string, outcome: JobOutcome, seconds: number) => void;
}

const DEFAULT_DEADLINE_MS = 60_000;

interface Scheduled<DB> {
  def: JobDefinition<DB>;
  nextAt: number;
  /** The run in flight: settles when it ends or is abandoned at its deadline. */
  running?: Promise<void>;
}

/**
 * One runner for a service's periodic and due work. Jobs are due by the injected clock: tick()
 * starts each due job once and waits for those runs (tests call it after moving the clock);
 * start() looks for due jobs on a timer without waiting, so a slow job never delays the others.
 * A job is never run twice at once by one runner. Work that claims rows (mail, deliveries) uses
 * claimWithLease: FOR UPDATE SKIP LOCKED plus a lease, so several runners never take the same row
 * and a crashed runner's rows come back after the lease.
 */
export class JobRunner<DB> {
  private readonly jobs: Scheduled<DB>[] = [];
  private readonly clock: Clock;
  private readonly random: () => number;
  /** Signals of runs not yet ended (including abandoned ones), aborted on stop. */
  private readonly inFlight = new Set<AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: JobRunnerOptions<DB>) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  every(def: JobDefinition<DB>): this {
    if (!(def.intervalMs > 0)) throw new Error(`job ${def.name}: intervalMs must be positive`);
    if (def.deadlineMs !== undefined && !(def.deadlineMs > 0))
      throw new Error(`job ${def.name}: deadlineMs must be positive`);
    if (this.jobs.some((j) => j.def.name === def.name)) throw new Error(`job ${def.name} is registered twice`);
    this.jobs.push({ def, nextAt: this.clock.now().getTime() + this.jitter(def) });
    return this;
  }

  get names() {
    return this.jobs.map((j) => j.def.name);
  }

  /** Starts every job that is due now (and not still running from before); resolves when those runs end or are abandoned. */
  async tick(): Promise<void> {
    await Promise.all(this.launchDue());
  }

  /** Looks for due jobs every tickMs until stop(). */
  start(): void {
    this.stopped = false;
    const tickMs = this.options.tickMs ?? Math.min(1_000, ...this.jobs.map((j) => j.def.intervalMs));
    const loop = () => {
      if (this.stopped) return;
      this.launchDue();
      this.timer = setTimeout(loop, tickMs);
      this.timer.unref();
    };
    loop();
  }

  /**
   * Starts nothing more, aborts the signal of every run in flight and waits for them (each at
   * most until its deadline). A run already abandoned at its deadline is not waited for.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const controller of this.inFlight) controller.abort(new Error('job runner stopping'));
    await Promise.all(this.jobs.map((j) => j.running));
  }

  private jitter(def: JobDefinition<DB>): number {
    return def.jitterMs ? Math.floor(this.random() * def.jitterMs) : 0;
  }

  private launchDue(): Promise<void>[] {
    if (this.stopped) return [];
    const now = this.clock.now().getTime();
    const launched: Promise<void>[] = [];
    for (const job of this.jobs) {
      if (job.nextAt > now || job.running) continue;
      job.nextAt = now + job.def.intervalMs + this.jitter(job.def);
      const run: Promise<void> = this.runOne(job.def).finally(() => {
        if (job.running === run) job.running = undefined;
      });
      job.running = run;
      launched.push(run);
    }
    return launched;
  }

  /** Never rejects: every outcome is logged and reported. */
  private async runOne(def: JobDefinition<DB>): Promise<void> {
    const log = this.options.logger.child({ job: def.name });
    const deadlineMs = def.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const started = performance.now();
    const ctx: JobContext<DB> = {
      db: this.options.db,
      now: this.clock.now(),
      clock: this.clock,
      signal: controller.signal,
      logger: log,
    };

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), deadlineMs);
    });
    // A job that throws synchronously fails like one that rejects.
    const work = Promise.resolve().then(() =>
      def.singleton ? this.runSingleton(def, ctx) : def.run(ctx).then(() => 'ok' as const),
    );
    let outcome: JobOutcome;
    try {
      outcome = await Promise.race([work, deadline]);
    } catch (err) {
      outcome = 'failed';
      log.error({ err }, 'job run failed');
    } finally {
      clearTimeout(timer);
    }

    if (outcome === 'deadline') {
      controller.abort(new Error(`${def.name} passed its ${deadlineMs} ms deadline`));
      log.warn({ deadlineMs }, 'job run abandoned at its deadline');
      // Say when it really ends: until then a singleton still holds its lock.
      void work
        .then(
          () => log.warn({ ms: Math.round(performance.now() - started) }, 'abandoned job run ended'),
          (err: unknown) => log.warn({ err, ms: Math.round(performance.now() - started) }, 'abandoned job run failed'),
        )
        .finally(() => this.inFlight.delete(controller));
    } else {
      this.inFlight.delete(controller);
    }
    this.options.onRun?.(def.name, outcome, (performance.now() - started) / 1000);
  }

  /**
   * Runs the job while a transaction on its own connection holds the job's advisory lock
   * (released at commit, or by PostgreSQL if the connection or process dies); 'skipped' when
   * another runner holds it. The key is scoped to the connection's schema, so services sharing a
   * database do not lock each other's jobs of the same name.
   */
  private async runSingleton(def: JobDefinition<DB>, ctx: JobContext<DB>): Promise<JobOutcome> {
    // One attempt only: the job's effects are outside this transaction, so it is never rerun.
    return inTransaction(
      this.options.db,
      async (lockTrx) => {
        const { rows } = await sql<{ locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(hashtextextended(coalesce(current_schema(), '') || '/job/' || ${def.name}, 0)) AS locked`.execute(
          lockTrx,
        );
        if (!rows[0]?.locked) return 'skipped';
        await def.run(ctx);
        return 'ok' as const;
      },
      1,
    );
  }
}

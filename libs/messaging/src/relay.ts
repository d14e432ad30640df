import { Kysely, PostgresDialect, sql } from 'kysely';
import type { ClientConfig, Pool } from 'pg';
import { listen } from '@platform/db';
import type { Logger } from '@platform/observability';
import type { AmqpConnection } from './connection';
import { OUTBOX_CHANNEL_SUFFIX, outboxCommits } from './outbox';
import { createPublisher } from './publisher';

export interface OutboxRelayOptions<DB = unknown> {
  /** pg pool of the service; also gives the settings of the dedicated LISTEN connection. */
  pool?: Pool;
  /** Kysely handle; with only `db` the relay polls unless `listen` is given. */
  db?: Kysely<DB>;
  /** Connection settings for LISTEN when no pool is passed. */
  listen?: ClientConfig;
  schema: string;
  amqp: AmqpConnection;
  exchange: string;
  logger: Logger;
  batchSize?: number;
  /**
   * Batches waiting for their confirms and commit at once (3): the next is claimed meanwhile, so
   * an event never waits for an earlier batch's confirms. Each holds a connection.
   */
  inFlight?: number;
  pollIntervalMs?: number;
  /** false: the relay does nothing (e.g. a process that must not publish). */
  enabled?: boolean;
  /**
   * false: no poll timer of its own; a job runner calls sweep() instead (the chassis does). It
   * still wakes on commits (see outboxCommits) and NOTIFY, and still retries after a failed pass.
   */
  selfPoll?: boolean;
  confirmTimeoutMs?: number;
  /** How long a batch waits for a broker connection before giving up until the next try. */
  channelWaitMs?: number;
}

export interface OutboxRelay {
  /** Stops polling and listening, waits for the batch in flight, closes its channel. */
  stop(): Promise<void>;
  /**
   * Looks for unpublished rows now (the periodic sweep, in case a NOTIFY was missed); resolves
   * when the relay is idle again (this pass and any it triggered are over). It never rejects: a
   * failed pass is logged and retried after pollIntervalMs.
   */
  sweep(): Promise<void>;
  /** Publishes everything this relay can claim now; rejects if some rows could not be published. */
  drain(): Promise<void>;
}

interface OutboxRow {
  id: string;
  routing_key: string;
  message: unknown;
  headers: Record<string, unknown> | null;
}

interface BatchResult {
  claimed: number;
  failed: number;
}

/**
 * Publishes committed outbox rows. Rows are claimed with FOR UPDATE SKIP LOCKED (never "after
 * the last id": ids and timestamps commit out of order), published with confirms, and marked in
 * the same transaction. A crash before the commit leaves them unpublished, so at worst a message
 * is published twice (consumers dedupe by message id); it is never lost. Several relays on the
 * same schema each take different rows.
 */
export function startOutboxRelay<DB = unknown>(options: OutboxRelayOptions<DB>): OutboxRelay {
  const { schema, exchange } = options;
  const log = options.logger.child({ component: 'outbox-relay', schema });
  if (options.enabled === false) {
    log.info('outbox relay disabled');
    return { stop: async () => undefined, drain: async () => undefined, sweep: async () => undefined };
  }
  if (!options.db && !options.pool) throw new Error('startOutboxRelay needs a pool or a db');
  // Not destroyed on stop: it shares the service's pool.
  const db = (options.db as Kysely<unknown> | undefined) ?? new Kysely<unknown>({ dialect: new PostgresDialect({ pool: options.pool as Pool }) });
  const batchSize = options.batchSize ?? 100;
  const inFlightMax = Math.max(1, options.inFlight ?? 3);
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const publisher = createPublisher(options.amqp, log, { confirmTimeoutMs: options.confirmTimeoutMs, channelWaitMs: options.channelWaitMs });
  const table = sql.id(schema, 'outbox');

  /**
   * Claims a batch and publishes it; resolves once its publishes are on the channel, with how many
   * rows it claimed and `done`, which settles after the confirms and the commit. The next batch
   * may be claimed before then: this one's rows stay locked until its commit, so SKIP LOCKED
   * passes them, and its messages are on the channel ahead of the next batch's.
   */
  function startBatch(): Promise<{ claimed: number; done: Promise<BatchResult> }> {
    return new Promise((resolveClaimed, rejectClaimed) => {
      let signalled = false;
      const signal = (claimed: number) => {
        signalled = true;
        resolveClaimed({ claimed, done });
      };
      const done: Promise<BatchResult> = db.transaction().execute(async (trx) => {
        // Claimed and marked in one statement (the row locks hold until commit); rows whose publish
        // fails are unmarked before the commit, and a crash rolls the marks back.
        const { rows: claimed } = await sql<OutboxRow & { created_at: Date }>`
          UPDATE ${table} SET published_at = clock_timestamp()
          WHERE id IN (SELECT id FROM ${table} WHERE published_at IS NULL ORDER BY created_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)
          RETURNING id, routing_key, message, headers, created_at`.execute(trx);
        if (claimed.length === 0) {
          signal(0);
          return { claimed: 0, failed: 0 };
        }
        const rows = claimed.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
        // In parallel: confirms arrive in bulk, so a batch costs about one round trip.
        const publishing = rows.map((row) =>
          publisher.publish(exchange, row.routing_key, Buffer.from(JSON.stringify(row.message)), { messageId: row.id, headers: row.headers ?? {} }),
        );
        signal(rows.length);
        const results = await Promise.allSettled(publishing);
        const unpublished = rows.filter((_, i) => results[i].status === 'rejected').map((r) => r.id);
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error)?.message ?? r.reason)] : []));
        if (unpublished.length) {
          await sql`UPDATE ${table} SET published_at = NULL WHERE id = ANY(${unpublished}::uuid[])`.execute(trx);
          log.warn({ failed: failures.length, published: rows.length - failures.length, reason: failures[0] }, 'outbox rows not published; will retry');
        } else log.debug({ published: rows.length }, 'outbox rows published');
        return { claimed: rows.length, failed: failures.length };
      });
      done.catch((err: unknown) => {
        if (!signalled) rejectClaimed(err);
      });
    });
  }

  /** One batch from claim to commit (drain, and tests of a single pass). */
  async function batch(): Promise<BatchResult> {
    const { done } = await exclusive(startBatch);
    return done;
  }

  // Claims one at a time per relay (drain and the background loop share this).
  let chain: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  }

  let stopped = false;
  let running = false;
  let again = false;
  /** Set while a pass waits for its batches' commits: a wake then claims more at once. */
  let nudge: (() => void) | undefined;
  let retryAfter = 0;
  let timer: NodeJS.Timeout | undefined;
  // Resolved when no pass runs any more (sweep() waits on it).
  let idleWaiters: (() => void)[] = [];
  function whenIdle(): Promise<void> {
    return running ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
  }

  const selfPoll = options.selfPoll ?? true;
  function arm() {
    clearTimeout(timer);
    if (stopped) return;
    // Without its own poll, only a pending retry arms the timer; the sweep job does the rest.
    if (!selfPoll && retryAfter <= Date.now()) return;
    timer = setTimeout(wake, Math.max(pollIntervalMs, retryAfter - Date.now()));
    timer.unref();
  }

  /**
   * Claims batches while there are rows (up to `inFlightMax` waiting for their confirms at once),
   * then waits for their commits; a wake meanwhile claims again at once instead of waiting.
   */
  async function loop() {
    const inFlight = new Set<Promise<BatchResult>>();
    let failed = 0;
    const track = (done: Promise<BatchResult>) => {
      inFlight.add(done);
      void done.then(
        (r) => void (failed += r.failed),
        (err: unknown) => {
          failed += 1;
          log.warn({ err: (err as Error)?.message }, 'outbox relay batch failed; its rows stay pending and are retried');
        },
      ).finally(() => inFlight.delete(done));
    };
    try {
      for (;;) {
        if (stopped || failed > 0) return;
        // Do not claim (lock) rows while we know the broker is away; the poll retries.
        if (!options.amqp.isConnected()) {
          retryAfter = Date.now() + pollIntervalMs;
          return;
        }
        if (inFlight.size >= inFlightMax) {
          await Promise.race(inFlight).catch(() => undefined);
          continue;
        }
        again = false;
        const { claimed, done } = await exclusive(startBatch);
        track(done);
        if (claimed === batchSize || again) continue;
        // Nothing more to claim now: wait for the commits, unless woken meanwhile.
        const woken = new Promise<void>((resolve) => (nudge = resolve));
        while (inFlight.size > 0 && !again && !stopped) await Promise.race([Promise.race(inFlight).catch(() => undefined), woken]);
        nudge = undefined;
        if (!again) return;
      }
    } finally {
      nudge = undefined;
      await Promise.allSettled([...inFlight]);
      // Errors of a batch (its transaction) count as a failed pass: retried after the poll interval.
      if (failed > 0) retryAfter = Date.now() + pollIntervalMs;
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      nudge?.();
      return;
    }
    if (Date.now() < retryAfter) return arm();
    running = true;
    again = false;
    clearTimeout(timer);
    loop()
      .catch((err: unknown) => {
        retryAfter = Date.now() + pollIntervalMs;
        log.warn({ err: (err as Error)?.message }, 'outbox relay pass failed; will retry');
      })
      .finally(() => {
        running = false;
        if (again && Date.now() >= retryAfter) wake();
        else arm();
        if (!running) {
          const waiters = idleWaiters;
          idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
  }

  // Commits in this process wake it directly; NOTIFY comes from writers in processes without a relay.
  outboxCommits.on(schema, wake);
  const listener = listen(options.pool?.options ?? options.listen, `${schema}${OUTBOX_CHANNEL_SUFFIX}`, { onNotify: wake, onUp: wake }, log);
  wake();

  return {
    sweep() {
      wake();
      return whenIdle();
    },
    async drain() {
      for (;;) {
        const result = await batch();
        if (result.failed > 0) throw new Error(`${result.failed} outbox rows of ${schema} could not be published; they stay pending`);
        if (result.claimed < batchSize) return;
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      outboxCommits.off(schema, wake);
      nudge?.();
      await listener.stop();
      await chain;
      await whenIdle();
      await publisher.close();
    },
  };
}

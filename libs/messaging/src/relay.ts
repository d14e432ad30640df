import { Kysely, PostgresDialect } from 'kysely';
import type { ClientConfig, Pool } from 'pg';
import { listen } from '@platform/db';
import type { Logger, Tracer } from '@platform/observability';
import type { AmqpConnection } from './connection';
import { OUTBOX_CHANNEL_SUFFIX, outboxCommits } from './outbox';
import { createPublisher } from './publisher';
import { startBatch, type BatchResult, type ClaimedBatch } from './relay-batch';
import { runPass, type RelayState } from './relay-pass';
import { relaySchedule } from './relay-schedule';

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
  /** Publishes in producer spans under each row's stored trace context (see relay-batch.ts); none when off. */
  tracer?: Tracer;
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
  const db =
    (options.db as Kysely<unknown> | undefined) ??
    new Kysely<unknown>({ dialect: new PostgresDialect({ pool: options.pool as Pool }) });
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const publisher = createPublisher(options.amqp, log, {
    confirmTimeoutMs: options.confirmTimeoutMs,
    channelWaitMs: options.channelWaitMs,
  });
  // One claim at a time per relay (drain and the passes share it).
  const claim = oneAtATime(() =>
    startBatch({ db, schema, exchange, batchSize, publisher, log, tracer: options.tracer }),
  );
  const state: RelayState = { stopped: false, again: false, retryAfter: 0 };
  const pass = () =>
    runPass({
      state,
      claim,
      batchSize,
      inFlightMax: Math.max(1, options.inFlight ?? 3),
      pollIntervalMs,
      isConnected: () => options.amqp.isConnected(),
      log,
    });
  const schedule = relaySchedule({ state, pass, selfPoll: options.selfPoll ?? true, pollIntervalMs, log });

  // Commits in this process wake it directly; NOTIFY comes from writers in processes without a relay.
  outboxCommits.on(schema, schedule.wake);
  const listener = listen(
    options.pool?.options ?? options.listen,
    `${schema}${OUTBOX_CHANNEL_SUFFIX}`,
    { onNotify: schedule.wake, onUp: schedule.wake },
    log,
  );
  schedule.wake();

  return {
    sweep() {
      schedule.wake();
      return schedule.whenIdle();
    },
    async drain() {
      await drainAll(claim, batchSize, schema);
      // Rows a pass had claimed when drain began were skipped (SKIP LOCKED): they are out once it ends.
      await schedule.whenIdle();
    },
    async stop() {
      schedule.stop();
      outboxCommits.off(schema, schedule.wake);
      await listener.stop();
      await claim.idle();
      await schedule.whenIdle();
      await publisher.close();
    },
  };
}

/** Claims and publishes batch after batch, each to its commit, until one comes back short. */
async function drainAll(claim: () => Promise<ClaimedBatch>, batchSize: number, schema: string): Promise<void> {
  for (;;) {
    const result: BatchResult = await (await claim()).done;
    if (result.failed > 0)
      throw new Error(`${result.failed} outbox rows of ${schema} could not be published; they stay pending`);
    if (result.claimed < batchSize) return;
  }
}

/** fn, run one call at a time in call order; idle() resolves once the calls made so far are over. */
function oneAtATime<T>(fn: () => Promise<T>): (() => Promise<T>) & { idle(): Promise<unknown> } {
  let chain: Promise<unknown> = Promise.resolve();
  const run = () => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };
  return Object.assign(run, { idle: () => chain });
}

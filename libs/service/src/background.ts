import type { Pool } from 'pg';
import type { Kysely } from '@platform/db';
import { JobRunner, pruneChassisTables, type JobDefinition } from '@platform/jobs';
import {
  consumerQueueNames,
  DEFAULT_RETRY_DELAYS_MS,
  startConsumer,
  startOutboxRelay,
  type Consumer,
  type OutboxRelay,
} from '@platform/messaging';
import type { ServiceConfig } from './config';
import type { ConsumerSpec, ServiceRuntime } from './definition';
import { pruneIdempotencyKeysJob } from './idempotency/keys.repository';
import { recordJobRun } from './metrics';

/** The outbox relay on its own connections (relayDb): under a burst of requests the main pool's queue is long, and events must not wait in it. */
export function startRelay(
  runtime: ServiceRuntime<unknown, ServiceConfig>,
  schema: string,
  relayDb: { db: Kysely<unknown>; pool: Pool },
): OutboxRelay {
  const { config } = runtime;
  return startOutboxRelay({
    pool: relayDb.pool,
    db: relayDb.db,
    schema,
    amqp: runtime.amqp,
    exchange: config.EVENTS_EXCHANGE,
    logger: runtime.logger,
    enabled: config.OUTBOX_RELAY_ENABLED,
    pollIntervalMs: config.OUTBOX_POLL_MS,
    // Woken by this process's commits (and NOTIFY); its periodic sweep is a job of the runner.
    selfPoll: false,
    tracer: runtime.tracer,
  });
}

/** The service's job runner: the chassis' jobs (outbox sweep, prune, expired Idempotency-Keys) and the service's own. */
export function jobRunner<DB>(
  runtime: ServiceRuntime<DB, ServiceConfig>,
  schema: string,
  relay: OutboxRelay,
  jobs: JobDefinition<DB>[],
): JobRunner<DB> {
  const { config, metrics } = runtime;
  const runner = new JobRunner<DB>({
    db: runtime.db,
    logger: runtime.logger,
    onRun: recordJobRun(metrics),
  });
  const prune = pruneChassisTables(schema, {
    outboxMs: config.OUTBOX_RETENTION_MS,
    processedMs: config.PROCESSED_RETENTION_MS,
  });
  runner.every({ name: 'outbox-sweep', intervalMs: config.OUTBOX_POLL_MS, run: async () => relay.sweep() }).every({
    name: 'prune-chassis-tables',
    intervalMs: 10 * 60_000,
    singleton: true,
    deadlineMs: 5 * 60_000,
    jitterMs: 60_000,
    run: ({ db, now, signal }) => prune(db as Kysely<unknown>, now, signal),
  });
  runner.every(pruneIdempotencyKeysJob<DB>());
  for (const job of jobs) runner.every(job);
  return runner;
}

/**
 * Starts the service's consumers on its main pool (their statements are prepared, and their
 * commits wake the relay), telling onStarted of each as it starts.
 */
export function startConsumers<DB>(
  runtime: ServiceRuntime<DB, ServiceConfig>,
  schema: string,
  specs: ConsumerSpec<DB>[],
  onStarted: (consumer: Consumer) => void,
): Consumer[] {
  const { amqp, pool, db, config, logger } = runtime;
  return specs.map((spec) => {
    const consumer = startConsumer<DB>({
      ...spec,
      queue: runtime.consumerQueue(spec.name),
      amqp,
      pool,
      db,
      schema,
      exchange: config.EVENTS_EXCHANGE,
      logger,
      tracer: runtime.tracer,
    });
    onStarted(consumer);
    return consumer;
  });
}

/** Every queue the consumers declare: work, parked and retry. */
export const declaredQueues = (
  runtime: Pick<ServiceRuntime<unknown, ServiceConfig>, 'consumerQueue'>,
  specs: Pick<ConsumerSpec<unknown>, 'name' | 'retryDelaysMs'>[],
) =>
  specs.flatMap((c) => {
    const names = consumerQueueNames(
      runtime.consumerQueue(c.name),
      (c.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS).length,
    );
    return [names.work, names.parked, ...names.retry];
  });

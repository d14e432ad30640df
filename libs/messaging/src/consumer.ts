import { dbOnPool } from '@platform/db';
import type { Pool } from 'pg';
import { withTimeout } from './connection';
import { messageBatches } from './consumer-batches';
import { superviseConsumerChannel } from './consumer-channel';
import { consumerSettings, type ConsumerOptions } from './consumer-settings';

export interface Consumer {
  /** Resolves once the queues are declared, bound and consumed from (first time). */
  ready(timeoutMs?: number): Promise<void>;
  /** Cancels consumption, waits for handlers in flight, closes the channel. */
  stop(): Promise<void>;
}

/**
 * An idempotent consumer on a quorum queue. Messages are handled in batches, one transaction per
 * batch (one commit and one idempotency insert for many messages), and acked only after it
 * commits. If a batch fails, its messages are handled again one by one: a failure goes to the
 * next delay queue (then back to the work queue), and after maxAttempts to `<queue>.parked`; an
 * invalid message is parked at once. The channel is re-opened (and the topology re-declared)
 * whenever it or the connection is lost.
 */
export function startConsumer<DB = unknown>(options: ConsumerOptions<DB>): Consumer {
  const { queue, schema, handlers, batchHandlers, handler } = options;
  const log = options.logger.child({ component: 'consumer', queue });
  if (!options.db && !options.pool) throw new Error('startConsumer needs a pool or a db');
  const db = options.db ?? dbOnPool<DB>(options.pool as Pool);
  const settings = consumerSettings(options);
  const batches = messageBatches({
    db,
    handling: { schema, queue, handlers, batchHandlers, handler, logger: log },
    maxBatch: settings.maxBatch,
    policy: settings.policy,
    confirmTimeoutMs: settings.confirmTimeoutMs,
    log,
    tracer: options.tracer,
  });
  const channel = superviseConsumerChannel({
    amqp: options.amqp,
    prefetch: settings.prefetch,
    topology: settings.topology,
    log,
    onMessage: batches.receive,
  });
  return {
    ready: (timeoutMs = 10_000) =>
      withTimeout(channel.ready, timeoutMs, `consumer ${queue} not ready within ${timeoutMs} ms`),
    stop: () => channel.stop(batches.settled),
  };
}

import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import type { Tracer } from '@platform/observability';
import type { AmqpConnection } from './connection';
import type { EventMessageHandling } from './event-handling';
import { retrySettings, type RetryPolicy } from './retry-routing';
import { consumerQueueNames, type ConsumerTopology } from './topology';

/** What startConsumer is given. */
export interface ConsumerOptions<DB> extends EventMessageHandling<DB> {
  amqp: AmqpConnection;
  pool?: Pool;
  db?: Kysely<DB>;
  exchange: string;
  /** Routing keys or topic patterns, e.g. ['domain.created', 'subscription.*']; default: the names in `handlers`. */
  bindings?: string[];
  /** Unacked messages the broker hands over at once (default 50); also the most one transaction takes. */
  prefetch?: number;
  /**
   * Most messages handled in one transaction (default: prefetch). Messages that arrive while a
   * batch runs form the next one, so batches grow with load and a lone message goes at once.
   */
  maxBatch?: number;
  /** One delay queue per step. */
  retryDelaysMs?: number[];
  /** Handler runs before parking; default retryDelaysMs.length + 1 (the last delay repeats). */
  maxAttempts?: number;
  /** Broker-side redelivery limit (crashes, lost channels) before a message is parked. */
  deliveryLimit?: number;
  confirmTimeoutMs?: number;
  /** Each message handled in a consumer span continuing its traceparent header; none when tracing is off. */
  tracer?: Tracer;
}

/** The options consumerSettings reads. */
export type ConsumerSettingsInput<DB> = Omit<ConsumerOptions<DB>, 'amqp' | 'pool' | 'db' | 'schema' | 'logger'>;

export interface ConsumerSettings {
  topology: ConsumerTopology;
  policy: RetryPolicy;
  prefetch: number;
  maxBatch: number;
  confirmTimeoutMs: number;
}

/**
 * A consumer's settings with their defaults: bindings default to the handled event names, a
 * batch to the prefetch, attempts to one more than the retry delays. Throws on options that
 * cannot make a working consumer.
 */
export function consumerSettings<DB>(options: ConsumerSettingsInput<DB>): ConsumerSettings {
  const { retryDelaysMs, maxAttempts } = retrySettings(options.retryDelaysMs, options.maxAttempts);
  const names = consumerQueueNames(options.queue, retryDelaysMs.length);
  const handlerNames = [
    ...new Set([...Object.keys(options.handlers ?? {}), ...Object.keys(options.batchHandlers ?? {})]),
  ];
  const bindings = options.bindings ?? handlerNames;
  if (bindings.length === 0) throw new Error('startConsumer needs bindings or handlers');
  if (!options.handler && handlerNames.length === 0) throw new Error('startConsumer needs handlers or a handler');
  const prefetch = options.prefetch ?? 50;
  return {
    topology: {
      exchange: options.exchange,
      queue: options.queue,
      bindings,
      retryDelaysMs,
      deliveryLimit: options.deliveryLimit ?? 5,
    },
    policy: { maxAttempts, retryQueues: names.retry, parkedQueue: names.parked },
    prefetch,
    maxBatch: Math.max(1, options.maxBatch ?? prefetch),
    confirmTimeoutMs: options.confirmTimeoutMs ?? 5_000,
  };
}

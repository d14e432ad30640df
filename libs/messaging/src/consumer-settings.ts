import { retrySettings, type RetryPolicy } from './retry-routing';
import { consumerQueueNames, type ConsumerTopology } from './topology';
import type { ConsumerOptions } from './consumer';

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

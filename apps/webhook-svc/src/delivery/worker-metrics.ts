import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export type WorkerMetrics = ReturnType<typeof workerMetrics>;

export function workerMetrics(registry: Registry) {
  const registers = [registry];
  return {
    attempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Delivery attempts by outcome (succeeded, failed) and lane',
      labelNames: ['outcome', 'lane'] as const,
      registers,
    }),
    duration: new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Time from sending to the answer (or the failure)',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    }),
    deferred: new Counter({
      name: 'webhook_deferred_total',
      help: 'Deliveries handed back unattempted, by reason (breaker_open, endpoint_busy, lease)',
      labelNames: ['reason'] as const,
      registers,
    }),
    inflight: new Gauge({
      name: 'webhook_attempts_in_flight',
      help: 'Attempts in flight by lane',
      labelNames: ['lane'] as const,
      registers,
    }),
  };
}

import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** A service's Prometheus registry, with process metrics and the HTTP metrics every service records. */
export interface ServiceMetrics {
  registry: Registry;
  /** Answers on /portal by operation and status, and how long they took. */
  httpRequests: Counter<'operation' | 'method' | 'status'>;
  httpDuration: Histogram<'operation' | 'method'>;
}

export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'Answered /portal requests by operation, method and status',
      labelNames: ['operation', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a /portal request, by operation',
      labelNames: ['operation', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

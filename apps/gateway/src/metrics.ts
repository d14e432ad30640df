import { Counter } from 'prom-client';
import { createServiceMetrics, type ServiceMetrics } from '@platform/service';

/** What an operator scrapes at /metrics: the chassis' process and HTTP metrics, and the gateway's own. */
export interface GatewayMetrics extends ServiceMetrics {
  /** 500 answers per service: each one is a bug; they are counted and logged, and do not open the breaker. */
  upstreamServerErrors: Counter<'upstream'>;
  /** Failed authentications by answer: 401, or 429 once the client address is past AUTH_FAILURES_PER_MINUTE. */
  authFailures: Counter<'answer'>;
  /** Portal sessions resolved, by where the answer came from: memory (a copy) or database. */
  sessionLookups: Counter<'source'>;
}

export function gatewayMetrics(): GatewayMetrics {
  const metrics = createServiceMetrics('gateway');
  const upstreamServerErrors = new Counter({
    name: 'gateway_upstream_server_errors_total',
    help: 'Answers with status 500 from a service, by service',
    labelNames: ['upstream'],
    registers: [metrics.registry],
  });
  const authFailures = new Counter({
    name: 'gateway_auth_failures_total',
    help: 'Failed authentications at the gateway, by answer (401, or 429 for an address failing too often)',
    labelNames: ['answer'],
    registers: [metrics.registry],
  });
  const sessionLookups = new Counter({
    name: 'gateway_session_lookups_total',
    help: 'Portal session cookies resolved, by source: memory (a cached copy) or database',
    labelNames: ['source'],
    registers: [metrics.registry],
  });
  return { ...metrics, upstreamServerErrors, authFailures, sessionLookups };
}

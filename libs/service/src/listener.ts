import type { RequestListener } from 'node:http';
import type { z } from 'zod';
import { InternalTokenVerifier, mayCallRoute, type InternalCaller } from '@platform/auth';
import { isInternalRoute, type RouteSpec } from '@platform/contracts';
import { ping, type Kysely } from '@platform/db';
import { buildServiceApp, createDispatcher, type Handlers } from '@platform/http';
import type { ConfigOf, ServiceDefinition, ServiceRuntime } from './definition';

/** Routes under this prefix are calls between services (never routed by the gateway, not in OpenAPI). */
const INTERNAL_PREFIX = '/internal';

type Runtime = ServiceRuntime<unknown, ConfigOf<z.ZodRawShape>>;

/**
 * What the HTTP server answers with: /portal (and /internal) through the dispatcher when this
 * process serves its routes, and health, readiness (database and broker), /metrics and the 404
 * for everything else.
 */
export function serviceListener<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  context: Ctx,
  runtime: ServiceRuntime<DB, ConfigOf<X>>,
): RequestListener {
  const { logger, db, amqp, metrics, config } = runtime;
  const fallback = buildServiceApp({ logger, readiness: { database: () => ping(db as Kysely<unknown>), broker: () => amqp.ready(1_000) }, metrics: metrics.registry });
  const { routes, handlers, audience } = definition;
  if (!routes || !handlers || !audience || !(definition.servesApi?.(config) ?? true)) return fallback;
  const verifier = new InternalTokenVerifier({ gateway: config.INTERNAL_JWT_PUBLIC_KEY, services: config.SERVICE_JWT_PUBLIC_KEY }, audience);
  const serve = { runtime: runtime as Runtime, verifier, handlers: handlers(context, runtime) };
  const internal = routes.filter(isInternalRoute);
  const portal = routes.filter((r) => !internal.includes(r));
  const listener = routeDispatcher(serve, portal, '/portal', fallback, false);
  return internal.length > 0 ? routeDispatcher(serve, internal, INTERNAL_PREFIX, listener, true) : listener;
}

interface Serving<R extends RouteSpec> {
  runtime: Runtime;
  verifier: InternalTokenVerifier;
  handlers: Handlers<R, InternalCaller>;
}

/** The routes under one prefix; anything else goes on to next. */
function routeDispatcher<R extends RouteSpec>({ runtime, verifier, handlers }: Serving<R>, routes: readonly R[], prefix: string, next: RequestListener, servicesOnly: boolean) {
  const { logger, metrics, config } = runtime;
  return createDispatcher<R, InternalCaller>({
    logger,
    routes,
    handlers,
    prefix,
    authenticate: (token) => verifier.verify(token),
    authorize: (caller, route) => mayCallRoute(caller, route, servicesOnly),
    fallback: next,
    validateResponses: config.NODE_ENV !== 'production',
    onAnswer: ({ operationId = 'unmatched', method, status, durationMs, requestId }) => {
      metrics.httpRequests.inc({ operation: operationId, method, status: String(status) });
      metrics.httpDuration.observe({ operation: operationId, method }, durationMs / 1000);
      logger.info({ requestId, method, operation: operationId, status, ms: Math.round(durationMs * 10) / 10 }, 'request');
    },
  });
}

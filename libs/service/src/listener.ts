import type { RequestListener } from 'node:http';
import type { z } from 'zod';
import { InternalTokenVerifier, mayCallRoute, type InternalCaller } from '@platform/auth';
import { isInternalRoute, isPublicRoute, type RouteSpec } from '@platform/contracts';
import { ping, type Kysely } from '@platform/db';
import { buildAdminApp, buildServiceApp, createDispatcher, type Handlers, type PublicCaller } from '@platform/http';
import type { ConfigOf, ServiceDefinition, ServiceRuntime } from './definition';
import { keyedHandlers } from './idempotency/keyed-handlers';
import { IdempotencyKeys } from './idempotency/keys.repository';
import { propertyOriginGuard, publicAuthenticator, publicPrefixes } from './public-routes';
import { API_ROLE } from './roles';

/** Routes under this prefix are calls between services (never routed by the gateway, not in OpenAPI). */
const INTERNAL_PREFIX = '/internal';

type Runtime = ServiceRuntime<unknown, ConfigOf<z.ZodRawShape>>;

/**
 * What the public HTTP server answers with: /portal (and /internal) through the dispatcher when
 * this process serves its routes, /health/live, and the 404 for everything else. Readiness and
 * /metrics are on the admin listener (adminListener). Writes take
 * an Idempotency-Key (keyedHandlers).
 */
export function serviceListener<DB, X extends z.ZodRawShape, R extends RouteSpec, Ctx>(
  definition: ServiceDefinition<DB, X, R, Ctx>,
  context: Ctx,
  runtime: ServiceRuntime<DB, ConfigOf<X>>,
): RequestListener {
  const { logger, db, config } = runtime;
  const fallback = buildServiceApp({ logger });
  const { routes, handlers, audience } = definition;
  if (!routes || !handlers || !audience || !runtime.runs(API_ROLE)) return fallback;
  const verifier = new InternalTokenVerifier(
    { gateway: config.INTERNAL_JWT_PUBLIC_KEY, services: config.SERVICE_JWT_PUBLIC_KEY },
    audience,
  );
  const keyed = {
    db: db as Kysely<unknown>,
    keys: new IdempotencyKeys(db as Kysely<unknown>),
    ttlMs: config.IDEMPOTENCY_TTL_MS,
    lockMs: config.IDEMPOTENCY_LOCK_MS,
  };
  const serve = {
    runtime: runtime as Runtime,
    verifier,
    handlers: keyedHandlers(routes, handlers(context, runtime), keyed),
  };
  const internal = routes.filter(isInternalRoute);
  const publicRoutes = routes.filter(isPublicRoute);
  const portal = routes.filter((r) => !internal.includes(r) && !publicRoutes.includes(r));
  let listener = routeDispatcher(serve, portal, '/portal', fallback, false);
  if (internal.length > 0) listener = routeDispatcher(serve, internal, INTERNAL_PREFIX, listener, true);
  if (publicRoutes.length === 0) return listener;
  if (!definition.propertyHostname && publicRoutes.some((r) => r.params?.shape.propertyId !== undefined)) {
    throw new Error(
      `${definition.name}: public routes that take a propertyId need propertyHostname (the Origin rule and CORS)`,
    );
  }
  const lookup = definition.propertyHostname?.(context, runtime);
  for (const prefix of publicPrefixes(publicRoutes)) {
    const underPrefix = publicRoutes.filter((r) => r.path.startsWith(`${prefix}/`));
    listener = publicDispatcher(
      serve as unknown as PublicServing,
      underPrefix,
      prefix,
      listener,
      propertyOriginGuard(lookup),
      audience,
    );
  }
  return listener;
}

type PublicServing = Serving<RouteSpec> & { handlers: Handlers<RouteSpec, PublicCaller> };

/** A service's public routes under one prefix: the gateway's public token only, the Origin rule before each handler. */
function publicDispatcher(
  { runtime, handlers }: PublicServing,
  routes: readonly RouteSpec[],
  prefix: string,
  next: RequestListener,
  guard: ReturnType<typeof propertyOriginGuard>,
  audience: string,
) {
  return createDispatcher<RouteSpec, PublicCaller>({
    logger: runtime.logger,
    routes,
    handlers,
    prefix,
    authenticate: publicAuthenticator(runtime.config.INTERNAL_JWT_PUBLIC_KEY, audience),
    guard,
    fallback: next,
    validateResponses: runtime.config.NODE_ENV !== 'production',
    onAnswer: answerReporter(runtime),
    tracer: runtime.tracer,
  });
}

/** The operator listener (admin port): liveness, readiness (database and broker) and /metrics. */
export function adminListener<DB>(
  runtime: Pick<ServiceRuntime<DB, unknown>, 'logger' | 'db' | 'amqp' | 'metrics'>,
  queues: string[],
): RequestListener {
  const { logger, db, amqp, metrics } = runtime;
  return buildAdminApp({
    logger,
    readiness: { database: () => ping(db as Kysely<unknown>), broker: () => amqp.ready(1_000) },
    metrics: metrics.registry,
    queues,
  });
}

interface Serving<R extends RouteSpec> {
  runtime: Runtime;
  verifier: InternalTokenVerifier;
  handlers: Handlers<R, InternalCaller>;
}

/** The routes under one prefix; anything else goes on to next. */
function routeDispatcher<R extends RouteSpec>(
  { runtime, verifier, handlers }: Serving<R>,
  routes: readonly R[],
  prefix: string,
  next: RequestListener,
  servicesOnly: boolean,
) {
  const { logger, config } = runtime;
  return createDispatcher<R, InternalCaller>({
    logger,
    routes,
    handlers,
    prefix,
    authenticate: (token) => verifier.verify(token),
    authorize: (caller, route) => mayCallRoute(caller, route, servicesOnly),
    fallback: next,
    validateResponses: config.NODE_ENV !== 'production',
    onAnswer: answerReporter(runtime),
    tracer: runtime.tracer,
  });
}

/** Metrics and the access log line of each answered request. */
function answerReporter({ logger, metrics }: Runtime) {
  return ({
    operationId = 'unmatched',
    method,
    status,
    durationMs,
    requestId,
  }: {
    operationId: string | undefined;
    method: string;
    status: number;
    durationMs: number;
    requestId: string;
  }) => {
    metrics.httpRequests.inc({ operation: operationId, method, status: String(status) });
    metrics.httpDuration.observe({ operation: operationId, method }, durationMs / 1000);
    logger.info({ requestId, method, operation: operationId, status, ms: Math.round(durationMs * 10) / 10 }, 'request');
  };
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Express, Request } from 'express';
import { defaultBurst, perKeyLimiter } from '@platform/coordination';
import { buildAdminApp, createHttpServer, requestIdOf } from '@platform/http';
import { buildApp } from './app';
import { readinessChecks, type Deps } from './deps';
import { FailedAuthThrottle } from './domain/failed-auth-throttle';
import { PORTAL_BASE, PortalApp } from './http/portal-app';
import { portalHandler } from './http/portal.handler';
import { publicHandler } from './http/public.handler';
import { routedOperation } from './http/portal-route';
import { gatewayRouteRunner } from './http/gateway-routes';
import { forwardedAudit } from './audit/forwarded-audit';
import { onboardingRequests } from './onboarding/onboarding-requests';
import { traceRequest } from './http/request-trace';
import type { Tracer } from '@platform/observability';

type ClientIp = (req: IncomingMessage) => string;

const isPortal = (url: string) => url.startsWith('/portal') && (url.length === 7 || url[7] === '/' || url[7] === '?');

/** Public (widget) paths: the widget's static files and the public routes' first segments, e.g. /widget/ and /.well-known/. */
const publicPathTest = (deps: Deps) => {
  const prefixes = [...new Set(['/widget/', ...deps.publicRoutes.map((r) => `/${r.spec.path.split('/')[1]}/`)])];
  return (url: string) => prefixes.some((p) => url.startsWith(p));
};

/**
 * The gateway's HTTP server (not yet listening; main.ts and tests call listenServer). /portal/* and
 * the public (widget) paths are served on plain node:http, the hot paths; everything else (docs,
 * health, 404) goes to Express. A request that has not fully arrived within BODY_TIMEOUT_MS gets 408.
 * With a tracer (tracing on), each /portal and public request is a server span its forwards carry.
 */
export function buildServer(deps: Deps, tracer?: Tracer): Server {
  const app = buildApp(deps);
  const clientIp = clientIpOf(deps, app);
  const portal = portalHandler(portalDeps(deps, clientIp));
  const publicRequests = publicHandler(publicDeps(deps, clientIp));
  const isPublic = publicPathTest(deps);
  const report = answerReporter(deps);
  const portalApp = new PortalApp(deps.config.PORTAL_DIST_DIR);
  const routePaths = new Map(deps.compiledRoutes.map((r) => [r.spec.operationId, r.spec.path]));
  return createHttpServer(
    (req, res) => {
      // The request id is set here for both paths, without AsyncLocalStorage: once enabled, its
      // promise hooks cost every promise in the process ~20% of the forward path's CPU. Log lines
      // on these paths carry the id explicitly instead.
      const id = requestIdOf(req, res);
      const url = req.url ?? '';
      if (url.startsWith(PORTAL_BASE)) {
        const pathname = url.split('?')[0];
        if (PortalApp.isAppPath(pathname)) return portalApp.serve(req, res, pathname);
      }
      const handler = isPortal(url) ? portal : isPublic(url) ? publicRequests : undefined;
      if (!handler) return app(req, res);
      if (tracer) traceRequest(tracer, routePaths, req, res, id);
      report(req, res, id);
      void handler(req, res, id);
    },
    { requestTimeoutMs: deps.config.BODY_TIMEOUT_MS },
  );
}

/** With trusted proxies, Express's own req.ip (proxy-addr) decides the client; otherwise the socket. */
function clientIpOf(deps: Deps, app: Express): ClientIp {
  if (deps.config.TRUSTED_PROXIES.length === 0) return (req) => req.socket.remoteAddress ?? '';
  return (req) => {
    Object.setPrototypeOf(req, app.request);
    return (req as Request).ip ?? '';
  };
}

const countServerError = (deps: Deps) => (service: string) =>
  deps.metrics.upstreamServerErrors.inc({ upstream: service });

function portalDeps(deps: Deps, clientIp: ClientIp) {
  const { config, coordination } = deps;
  const perMinute = config.AUTH_FAILURES_PER_MINUTE;
  const authFailures = new FailedAuthThrottle(
    perMinute,
    (throttled) => deps.metrics.authFailures.inc({ answer: throttled ? '429' : '401' }),
    undefined,
    coordination?.limiter({ name: 'auth-failures', perMinute, burst: perMinute }),
  );
  const keyRate = { perMinute: config.RATE_LIMIT_PER_MINUTE, burst: config.RATE_LIMIT_BURST };
  return {
    keys: deps.keys,
    routes: deps.compiledRoutes,
    upstreams: deps.upstreams,
    minter: deps.minter,
    logger: deps.logger,
    keyLimiter: perKeyLimiter(coordination, {
      name: 'portal-key',
      perMinute: keyRate.perMinute,
      burst: keyRate.burst ?? defaultBurst(keyRate.perMinute),
    }),
    replicas: coordination?.replicas,
    fairShare: {
      maxInFlight: config.FAIR_SHARE_MAX_IN_FLIGHT,
      serviceMaxInFlight: Math.max(config.FAIR_SHARE_MAX_IN_FLIGHT, config.FAIR_SHARE_SERVICE_MAX_IN_FLIGHT),
      maxQueued: config.FAIR_SHARE_MAX_QUEUED,
      queueTimeoutMs: config.FAIR_SHARE_QUEUE_TIMEOUT_MS,
    },
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    onServerError: countServerError(deps),
    clientIp,
    authFailures,
    identity: deps.identity,
    lastUsed: deps.lastUsed,
    audit: forwardedAudit(deps.compiledRoutes, deps.audit, deps.logger, deps.now),
    runGatewayRoute: gatewayRouteRunner({
      db: deps.db,
      identity: deps.identity,
      users: deps.users,
      keys: deps.portalKeys,
      settings: deps.settings,
      accessUsers: deps.accessUsers,
      customers: deps.customers,
      ownerDomains: deps.ownerDomains,
      authFailures,
      keyed: deps.idempotency,
      secureCookies: !['development', 'test'].includes(config.NODE_ENV),
      checkAnswersWith: config.NODE_ENV === 'production' ? undefined : deps.logger,
    }),
  };
}

function publicDeps(deps: Deps, clientIp: ClientIp) {
  const { config } = deps;
  return {
    routes: deps.publicRoutes,
    upstreams: deps.upstreams,
    minter: deps.minter,
    logger: deps.logger,
    assets: deps.assets,
    limits: deps.publicLimits,
    bodyLimitBytes: config.PUBLIC_BODY_LIMIT_BYTES,
    clientIp,
    onServerError: countServerError(deps),
    onboarding: onboardingRequests({
      ...deps.onboarding,
      checkAnswersWith: config.NODE_ENV === 'production' ? undefined : deps.logger,
    }),
  };
}

/** Metrics and the access log line of each /portal and public request, once answered. */
function answerReporter(deps: Deps) {
  return (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const started = performance.now();
    res.once('finish', () => {
      const operation = routedOperation.get(res) ?? 'unmatched';
      const method = req.method ?? 'GET';
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.httpRequests.inc({ operation, method, status: String(res.statusCode) });
      deps.metrics.httpDuration.observe({ operation, method }, seconds);
      deps.logger.info(
        { requestId, method, operation, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 },
        'request',
      );
    });
  };
}

/** The operator listener (GATEWAY_ADMIN_PORT, loopback by default): liveness, readiness and /metrics. */
export const buildAdminServer = (deps: Deps): Server =>
  createHttpServer(
    buildAdminApp({ logger: deps.logger, readiness: readinessChecks(deps), metrics: deps.metrics.registry }),
  );

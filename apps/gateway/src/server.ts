import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Request } from 'express';
import { answerClientErrors, buildAdminApp, createHttpServer } from '@platform/http';
import { REQUEST_ID_HEADER } from '@platform/observability';
import { buildApp } from './app';
import { readinessChecks, type Deps } from './deps';
import { FailedAuthThrottle } from './domain/failed-auth-throttle';
import { portalHandler } from './http/portal.handler';
import { publicHandler } from './http/public.handler';
import { routedOperation } from './http/portal-route';

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

const isPortal = (url: string) => url.startsWith('/portal') && (url.length === 7 || url[7] === '/' || url[7] === '?');

/** Public (widget) paths: the widget's static files and the public routes' first segments, e.g. /widget/ and /.well-known/. */
const publicPathTest = (deps: Deps) => {
  const prefixes = [...new Set(['/widget/', ...deps.publicRoutes.map((r) => `/${r.spec.path.split('/')[1]}/`)])];
  return (url: string) => prefixes.some((p) => url.startsWith(p));
};

/** Node's own HTTP/1 header limit, in the one place the server is configured. */
const HEADERS_TIMEOUT_MS = 60_000;

/**
 * A request (headers and body) that has not fully arrived within BODY_TIMEOUT_MS gets Node's 408
 * and the connection is closed (answered by answerClientErrors). Node checks pending requests
 * every connectionsCheckingInterval (30 s by default): a quarter of the bound, at most 1 s, keeps
 * the cut-off close to the bound.
 */
const requestBounds = (bodyTimeoutMs: number): ServerOptions => ({
  requestTimeout: bodyTimeoutMs,
  headersTimeout: Math.min(HEADERS_TIMEOUT_MS, bodyTimeoutMs),
  connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(bodyTimeoutMs / 4))),
});

/**
 * The gateway's HTTP server (not yet listening; main.ts and tests call startServer). /portal/* and
 * the public (widget) paths are served on plain node:http, the hot paths; everything else (docs,
 * health, 404) goes to Express.
 */
export function buildServer(deps: Deps): Server {
  const app = buildApp(deps);
  // With trusted proxies, Express's own req.ip (proxy-addr) decides the client; otherwise the socket.
  const clientIp =
    deps.config.TRUSTED_PROXIES.length > 0
      ? (req: IncomingMessage) => {
          Object.setPrototypeOf(req, app.request);
          return (req as Request).ip ?? '';
        }
      : (req: IncomingMessage) => req.socket.remoteAddress ?? '';
  const portal = portalHandler({
    keys: deps.keys,
    routes: deps.compiledRoutes,
    upstreams: deps.upstreams,
    minter: deps.minter,
    logger: deps.logger,
    rateLimit: { perMinute: deps.config.RATE_LIMIT_PER_MINUTE, burst: deps.config.RATE_LIMIT_BURST },
    fairShare: {
      maxInFlight: deps.config.FAIR_SHARE_MAX_IN_FLIGHT,
      maxQueued: deps.config.FAIR_SHARE_MAX_QUEUED,
      queueTimeoutMs: deps.config.FAIR_SHARE_QUEUE_TIMEOUT_MS,
    },
    bodyLimitBytes: deps.config.BODY_LIMIT_BYTES,
    onServerError: (service) => deps.metrics.upstreamServerErrors.inc({ upstream: service }),
    clientIp,
    authFailures: new FailedAuthThrottle(deps.config.AUTH_FAILURES_PER_MINUTE, (throttled) =>
      deps.metrics.authFailures.inc({ answer: throttled ? '429' : '401' }),
    ),
  });
  const publicRequests = publicHandler({
    routes: deps.publicRoutes,
    upstreams: deps.upstreams,
    minter: deps.minter,
    logger: deps.logger,
    assets: deps.assets,
    perAddressPerMinute: deps.config.PUBLIC_RATE_LIMIT_PER_ADDRESS,
    perPropertyPerMinute: deps.config.PUBLIC_RATE_LIMIT_PER_PROPERTY,
    bodyLimitBytes: deps.config.PUBLIC_BODY_LIMIT_BYTES,
    clientIp,
    onServerError: (service) => deps.metrics.upstreamServerErrors.inc({ upstream: service }),
  });
  const isPublic = publicPathTest(deps);
  const server = createServer(requestBounds(deps.config.BODY_TIMEOUT_MS), (req, res) => {
    // The request id is set here for both paths, without AsyncLocalStorage: once enabled, its
    // promise hooks cost every promise in the process ~20% of the forward path's CPU. Log lines
    // on the portal path carry the id explicitly instead.
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, id);
    const url = req.url ?? '';
    const handler = isPortal(url) ? portal : isPublic(url) ? publicRequests : undefined;
    if (!handler) return app(req, res);
    const started = performance.now();
    res.once('finish', () => {
      const operation = routedOperation.get(res) ?? 'unmatched';
      const method = req.method ?? 'GET';
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.httpRequests.inc({ operation, method, status: String(res.statusCode) });
      deps.metrics.httpDuration.observe({ operation, method }, seconds);
      deps.logger.info(
        { requestId: id, method, operation, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 },
        'request',
      );
    });
    void handler(req, res, id);
  });
  return answerClientErrors(server);
}

/** The operator listener (GATEWAY_ADMIN_PORT, loopback by default): liveness, readiness and /metrics. */
export const buildAdminServer = (deps: Deps): Server =>
  createHttpServer(
    buildAdminApp({ logger: deps.logger, readiness: readinessChecks(deps), metrics: deps.metrics.registry }),
  );

/** Listens and resolves with the server once bound (port 0 = ephemeral, for tests). */
export function startServer(server: Server, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

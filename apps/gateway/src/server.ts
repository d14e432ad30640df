import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Request } from 'express';
import { answerClientErrors } from '@platform/http';
import { REQUEST_ID_HEADER } from '@platform/observability';
import { buildApp } from './app';
import type { Deps } from './deps';
import { portalHandler } from './http/portal.handler';
import { routedOperation } from './http/portal-route';

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

const isPortal = (url: string) => url.startsWith('/portal') && (url.length === 7 || url[7] === '/' || url[7] === '?');

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
 * The gateway's HTTP server (not yet listening; main.ts and tests call startServer). /portal/* is
 * served on plain node:http, the hot path; everything else (docs, health, 404) goes to Express.
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
    rateLimitPerMinute: deps.config.RATE_LIMIT_PER_MINUTE,
    bodyLimitBytes: deps.config.BODY_LIMIT_BYTES,
    idempotency: deps.idempotency,
    idempotencyTtlMs: deps.config.IDEMPOTENCY_TTL_MS,
    idempotentCompletionMs: deps.config.IDEMPOTENT_COMPLETION_TIMEOUT_MS,
    onServerError: (service) => deps.metrics.upstreamServerErrors.inc({ upstream: service }),
    clientIp,
  });
  const server = createServer(requestBounds(deps.config.BODY_TIMEOUT_MS), (req, res) => {
    // The request id is set here for both paths, without AsyncLocalStorage: once enabled, its
    // promise hooks cost every promise in the process ~20% of the forward path's CPU. Log lines
    // on the portal path carry the id explicitly instead.
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, id);
    if (!isPortal(req.url ?? '')) return app(req, res);
    const started = performance.now();
    res.once('finish', () => {
      const operation = routedOperation.get(res) ?? 'unmatched';
      const method = req.method ?? 'GET';
      const seconds = (performance.now() - started) / 1000;
      deps.metrics.httpRequests.inc({ operation, method, status: String(res.statusCode) });
      deps.metrics.httpDuration.observe({ operation, method }, seconds);
      deps.logger.info({ requestId: id, method, operation, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, 'request');
    });
    void portal(req, res, id);
  });
  return answerClientErrors(server);
}

/** Listens and resolves with the server once bound (port 0 = ephemeral, for tests). */
export function startServer(server: Server, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Request } from 'express';
import { REQUEST_ID_HEADER } from '@platform/observability';
import { buildApp } from './app';
import type { Deps } from './deps';
import { portalHandler } from './http/portal.handler';

const VALID_REQUEST_ID = /^[\w.:-]{1,128}$/;

const isPortal = (url: string) => url.startsWith('/portal') && (url.length === 7 || url[7] === '/' || url[7] === '?');

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
    onServerError: (service) => deps.metrics.upstreamServerErrors.inc({ service }),
    clientIp,
  });
  return createServer((req, res) => {
    // The request id is set here for both paths, without AsyncLocalStorage: once enabled, its
    // promise hooks cost every promise in the process ~20% of the forward path's CPU. Log lines
    // on the portal path carry the id explicitly instead.
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, id);
    if (isPortal(req.url ?? '')) void portal(req, res, id);
    else app(req, res);
  });
}

/** Listens and resolves with the server once bound (port 0 = ephemeral, for tests). */
export function startServer(server: Server, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.keepAliveTimeout = 65_000;
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

import express, { type RequestHandler } from 'express';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type CompiledRoute } from '@platform/contracts';
import { hasBody, isJsonContentType, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { KeyAuthenticator } from '../domain/key-authenticator';
import { authenticate } from './authenticate.middleware';
import { forward, type Upstreams } from './forward.handler';
import { rateLimitPerKey } from './rate-limit.middleware';
import { routeAndAuthorise } from './route.middleware';

export interface PortalDeps {
  keys: KeyAuthenticator;
  routes: CompiledRoute[];
  upstreams: Upstreams;
  minter: InternalTokenMinter;
  logger: Logger;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
}

/**
 * Raw bytes are forwarded untouched; body-parser rejects an oversized Content-Length up front
 * and counts streamed bytes (413 via the error handler). Body-less requests skip it entirely.
 */
function readBody(limit: number): RequestHandler {
  const raw = express.raw({ type: () => true, limit });
  return (req, res, next) => (hasBody(req.headers) ? raw(req, res, next) : next());
}

const isPortal = (url: string) => url.startsWith('/portal') && (url.length === 7 || url[7] === '/' || url[7] === '?');

/**
 * Runs handlers in order like a router would, minus the per-layer path matching: this is the
 * hot path, and express's Router costs a measurable share of it.
 */
function chain(handlers: RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    let i = 0;
    const next = (err?: unknown) => {
      if (err) return done(err);
      const handler = handlers[i++];
      if (!handler) return done();
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (error) {
        done(error);
      }
    };
    next();
  };
}

/** /portal/*: key -> rate limit -> route + permission -> body rules -> forward. Order matters. */
export function portalRouter(deps: PortalDeps): RequestHandler {
  const portal = chain([
    authenticate(deps.keys, deps.logger),
    rateLimitPerKey(deps.rateLimitPerMinute),
    routeAndAuthorise(deps.routes),
    (req, res, next) => {
      if (hasBody(req.headers) && !isJsonContentType(req.headers['content-type'])) {
        return sendError(res, errorObject('REQUEST.UNSUPPORTED_MEDIA_TYPE'));
      }
      next();
    },
    readBody(deps.bodyLimitBytes),
    forward(deps.upstreams, deps.minter, deps.logger),
  ]);
  return (req, res, next) => (isPortal(req.url) ? portal(req, res, next) : next());
}

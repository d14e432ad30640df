import express, { Router } from 'express';
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

/** /portal/*: key -> rate limit -> route + permission -> body rules -> forward. Order matters. */
export function portalRouter(deps: PortalDeps): Router {
  const router = Router();
  router.use(
    authenticate(deps.keys, deps.logger),
    rateLimitPerKey(deps.rateLimitPerMinute),
    routeAndAuthorise(deps.routes),
    (req, res, next) => {
      if (hasBody(req.headers) && !isJsonContentType(req.headers['content-type'])) {
        return sendError(res, errorObject('REQUEST.UNSUPPORTED_MEDIA_TYPE'));
      }
      next();
    },
    // Raw bytes are forwarded untouched; body-parser rejects an oversized Content-Length up front
    // and counts streamed bytes (413 via the error handler).
    express.raw({ type: () => true, limit: deps.bodyLimitBytes }),
    forward(deps.upstreams, deps.minter, deps.logger),
  );
  return router;
}

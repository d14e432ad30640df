import express, { type Express } from 'express';
import { errorHandler, requestId, routeNotFound } from '@platform/http';
import type { Deps } from './deps';
import { readinessChecks } from './deps';
import { docsRouter } from './http/docs.routes';
import { healthRouter } from './http/health.routes';
import { portalRouter } from './http/portal.routes';

/** The gateway's HTTP app; never listens (main.ts and tests do). */
export function buildApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The query string is forwarded untouched; the gateway never parses it.
  app.set('query parser', false);
  // req.ip: the socket address, or the X-Forwarded-For client only when the socket is a trusted proxy.
  app.set('trust proxy', deps.config.TRUSTED_PROXIES.length > 0 ? deps.config.TRUSTED_PROXIES : false);
  app.use(requestId);
  // /portal first: it is the hot path, so it should not walk the other routers.
  app.use(
    portalRouter({
      keys: deps.keys,
      routes: deps.compiledRoutes,
      upstreams: deps.upstreams,
      minter: deps.minter,
      logger: deps.logger,
      rateLimitPerMinute: deps.config.RATE_LIMIT_PER_MINUTE,
      bodyLimitBytes: deps.config.BODY_LIMIT_BYTES,
    }),
  );
  app.use(healthRouter(readinessChecks(deps)));
  app.use(docsRouter(deps.routes));
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}

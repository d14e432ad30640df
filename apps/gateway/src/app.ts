import express, { type Express } from 'express';
import { errorHandler, livenessRouter, routeNotFound } from '@platform/http';
import type { Deps } from './deps';
import { docsRouter } from './http/docs.routes';

/**
 * Everything but /portal on the public port (docs, liveness, 404): the fallback handler of
 * buildServer's server, which sets the request id. Readiness and /metrics are on the admin
 * listener (buildAdminServer), never here.
 */
export function buildApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The query string is forwarded untouched; the gateway never parses it.
  app.set('query parser', false);
  // req.ip: the socket address, or the X-Forwarded-For client only when the socket is a trusted proxy.
  app.set('trust proxy', deps.config.TRUSTED_PROXIES.length > 0 ? deps.config.TRUSTED_PROXIES : false);
  app.use(livenessRouter());
  app.use(docsRouter(deps.routes));
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}

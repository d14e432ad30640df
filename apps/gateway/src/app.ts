import express, { type Express } from 'express';
import { errorHandler, healthRouter, routeNotFound } from '@platform/http';
import type { Deps } from './deps';
import { readinessChecks } from './deps';
import { docsRouter } from './http/docs.routes';

/** Everything but /portal (docs, health, 404): the fallback handler of buildServer's server, which sets the request id. */
export function buildApp(deps: Deps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The query string is forwarded untouched; the gateway never parses it.
  app.set('query parser', false);
  // req.ip: the socket address, or the X-Forwarded-For client only when the socket is a trusted proxy.
  app.set('trust proxy', deps.config.TRUSTED_PROXIES.length > 0 ? deps.config.TRUSTED_PROXIES : false);
  app.use(healthRouter(readinessChecks(deps)));
  app.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  app.use(docsRouter(deps.routes));
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}

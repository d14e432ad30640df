import express, { Router, type Express } from 'express';
import { errorObject } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import { errorHandler, routeNotFound, sendError } from './errors';
import { jsonBody, requestId } from './middleware';

export type HealthCheck = () => Promise<void>;

export interface ServiceAppOptions {
  logger: Logger;
  bodyLimit?: string;
}

export interface AdminAppOptions {
  logger: Logger;
  /** Checks for /health/ready (database, broker...). /health/live answers while the process runs. */
  readiness?: Record<string, HealthCheck>;
  /** Served at /metrics (a prom-client Registry fits). */
  metrics?: { contentType: string; metrics(): Promise<string> };
  /** The broker queues this process's consumers declared: named in the ready answer, for operators and for a test run's clean-up. */
  queues?: string[];
}

/**
 * /health/live while the process runs. It tells nothing but that the listener answers, so it is
 * also served on the public port: a load balancer's check of the port it sends traffic to.
 */
export function livenessRouter(): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  return router;
}

/** /health/ready (503 in the envelope) unless every dependency answers; names each dependency, so operators only. */
export function readinessRouter(readiness: Record<string, HealthCheck>, about: Record<string, unknown> = {}): Router {
  const router = Router();
  router.get('/health/ready', async (_req, res) => {
    const checks: Record<string, string> = {};
    let ok = true;
    for (const [name, check] of Object.entries(readiness)) {
      try {
        await check();
        checks[name] = 'ok';
      } catch {
        ok = false;
        checks[name] = 'down';
      }
    }
    if (ok) return void res.json({ status: 'ok', checks, ...about });
    sendError(res, errorObject('SERVICE.UNAVAILABLE', 'A dependency of this service is down.', { checks }));
  });
  return router;
}

const plainExpress = (): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
};

/**
 * The operator listener of a process (its admin port, loopback by default): liveness, readiness
 * and Prometheus metrics; anything else is the 404 envelope. Never on the port partners reach.
 */
export function buildAdminApp(options: AdminAppOptions): Express {
  const app = plainExpress();
  app.use(livenessRouter());
  app.use(readinessRouter(options.readiness ?? {}, options.queues ? { queues: options.queues } : {}));
  const metrics = options.metrics;
  if (metrics) {
    app.get('/metrics', async (_req, res) => {
      res.type(metrics.contentType).send(await metrics.metrics());
    });
  }
  app.use(requestId);
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}

/** What a service answers on its public port beside its routes: liveness, and for anything else (after request id and JSON body rules) the 404 through the one error handler. */
export function buildServiceApp(options: ServiceAppOptions): Express {
  const app = plainExpress();
  app.use(livenessRouter());
  app.use(requestId);
  app.use(jsonBody(options.bodyLimit));
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}

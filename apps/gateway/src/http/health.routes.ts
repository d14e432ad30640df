import { Router } from 'express';
import { errorObject } from '@platform/contracts';
import { sendError } from '@platform/http';

export type HealthCheck = () => Promise<void>;

/** /health/live while the process runs; /health/ready when every dependency answers. */
export function healthRouter(readiness: Record<string, HealthCheck>): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
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
    if (ok) return void res.json({ status: 'ok', checks });
    sendError(res, errorObject('SERVICE.UNAVAILABLE', 'A dependency of the gateway is down.', { checks }));
  });
  return router;
}

import { Router } from 'express';
import { requireInternalCaller } from '@platform/auth';
import { ping, type Kysely } from '@platform/db';
import { buildServiceApp } from '@platform/http';
import type { Deps } from './deps';
import { domainsRouter } from './http/domains.routes';
import { subdomainsRouter } from './http/subdomains.routes';

/** The HTTP app; every /portal route needs the gateway's internal token. Never listens. */
export function buildApp(deps: Pick<Deps, 'logger' | 'db' | 'verifier' | 'ctx'>) {
  const portal = Router();
  portal.use('/portal', requireInternalCaller(deps.verifier));
  portal.use(domainsRouter(deps.ctx));
  portal.use(subdomainsRouter(deps.ctx));
  return buildServiceApp({
    logger: deps.logger,
    routers: [portal],
    readiness: { database: () => ping(deps.db as Kysely<unknown>) },
  });
}

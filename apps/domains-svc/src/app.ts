import type { Server } from 'node:http';
import type { InternalCaller } from '@platform/auth';
import { domainsServiceRoutes } from '@platform/contracts';
import { ping, type Kysely } from '@platform/db';
import { buildServiceApp, createDispatcher, createHttpServer } from '@platform/http';
import type { Deps } from './deps';
import { domainHandlers } from './http/domains.handlers';
import { subdomainHandlers } from './http/subdomains.handlers';

/**
 * The HTTP server; never listens. /portal/* is served from the contract's route table straight
 * on node:http (every route needs the gateway's internal token); Express keeps health and 404s.
 */
export function buildServer(deps: Pick<Deps, 'logger' | 'db' | 'verifier' | 'ctx'>): Server {
  const fallback = buildServiceApp({
    logger: deps.logger,
    routers: [],
    readiness: { database: () => ping(deps.db as Kysely<unknown>) },
  });
  const portal = createDispatcher<(typeof domainsServiceRoutes)[number], InternalCaller>({
    logger: deps.logger,
    routes: domainsServiceRoutes,
    handlers: { ...domainHandlers(deps.ctx), ...subdomainHandlers(deps.ctx) },
    prefix: '/portal',
    authenticate: (token) => deps.verifier.verify(token),
    fallback,
  });
  return createHttpServer(portal);
}

import { listenOf } from '@platform/config';
import { merchantInternalRoutes, merchantRoutes } from '@platform/contracts';
import type { ServiceDefinition } from '@platform/service';
import { catalogueClient } from './clients/catalogue.client';
import { domainsClient } from './clients/domains.client';
import { domainEventsConsumer } from './events/domain-events.consumer';
import { migrations } from './db/migrations';
import type { MerchantsContext } from './domain/context';
import { SCHEMA, type MerchantsDb } from './db/tables';
import { internalHandlers } from './http/internal.handlers';
import { merchantHandlers } from './http/merchants.handlers';

const routes = [...merchantRoutes, ...merchantInternalRoutes];

/** Merchants (the partner's CRUD) and their links to domains (a projection of domain events): on the chassis. */
export const merchantsService: ServiceDefinition<
  MerchantsDb,
  Record<string, never>,
  (typeof routes)[number],
  MerchantsContext
> = {
  name: 'merchants-svc',
  schema: SCHEMA,
  audience: 'merchants',
  listen: listenOf('merchants-svc'),
  migrations,
  context: ({ db, call, logger }) => ({
    db,
    catalogue: catalogueClient(() => call('billing')),
    domains: domainsClient(() => call('domains'), logger),
    domainEvents: domainEventsConsumer(),
  }),
  routes,
  handlers: (ctx, { logger, consumerQueue }) => ({
    ...merchantHandlers(ctx),
    ...internalHandlers(ctx.db, { ...ctx.domainEvents, queue: consumerQueue(), schema: SCHEMA, logger }),
  }),
  consumers: (ctx) => [ctx.domainEvents],
};

import { listenOf } from '@platform/config';
import { billingInternalRoutes, productRoutes, subscriptionStatsRoutes } from '@platform/contracts';
import type { ServiceDefinition } from '@platform/service';
import { domainEventsConsumer } from './events/domain-events.consumer';
import { loadCatalogue } from './db/catalogue.repository';
import { migrations } from './db/migrations';
import { SCHEMA, type BillingDb } from './db/tables';
import { cachedCatalogue } from './domain/catalogue.service';
import type { BillingContext } from './domain/context';
import { productHandlers } from './http/products.handlers';
import { internalHandlers } from './http/internal.handlers';
import { subscriptionStatsHandlers } from './stats/subscription-stats';

const routes = [...productRoutes, ...subscriptionStatsRoutes, ...billingInternalRoutes];

/** Products, price lists, prices and subscriptions (opened and ended by domain events, changed by domains-svc): on the chassis. */
export const billingService: ServiceDefinition<
  BillingDb,
  Record<string, never>,
  (typeof routes)[number],
  BillingContext
> = {
  name: 'billing-svc',
  schema: SCHEMA,
  audience: 'billing',
  listen: listenOf('billing-svc'),
  migrations,
  context: ({ db }) => ({ db, catalogue: cachedCatalogue(() => loadCatalogue(db), 5_000) }),
  routes,
  handlers: (ctx) => ({
    ...productHandlers(ctx.catalogue),
    ...subscriptionStatsHandlers(ctx),
    ...internalHandlers(ctx.db),
  }),
  consumers: () => [domainEventsConsumer()],
};

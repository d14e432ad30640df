import { z } from 'zod';
import { resultOf } from '../common';
import { SUBSCRIPTION_STATUSES } from '../domains/domain.schema';
import { defineRoute, type RouteSpec } from '../routes';

const count = z.number().int().min(0);

export const productSubscriptionStatsSchema = z
  .object({
    product_code: z.string(),
    product_name: z.string(),
    active: count.meta({ description: 'Subscriptions in status ACTIVE' }),
    total: count.meta({ description: 'Subscriptions in any status, ended (INACTIVE) ones included' }),
    by_status: z
      .object(
        Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, count])) as Record<
          (typeof SUBSCRIPTION_STATUSES)[number],
          typeof count
        >,
      )
      .meta({ description: 'Every subscription status, 0 when none' }),
  })
  .meta({ id: 'ProductSubscriptionStats' });

export const subscriptionStatsSchema = z
  .object({
    by_product: z
      .array(productSubscriptionStatsSchema)
      .meta({ description: 'Every product of the catalogue, in its order, with 0 counts when the partner has none' }),
  })
  .meta({ id: 'SubscriptionStats' });
export type SubscriptionStats = z.infer<typeof subscriptionStatsSchema>;

/** The portal's Dashboard: the partner's subscriptions by product. */
export const subscriptionStatsRoutes = [
  defineRoute({
    service: 'billing',
    // A subscription is a domain's (GET /portal/domains/{id} shows it): whoever reads domains reads these counts.
    permission: 'domains:read',
    tag: 'Dashboard',
    operationId: 'getSubscriptionStats',
    method: 'get',
    path: '/portal/stats/subscriptions',
    summary: 'Subscriptions by product and status',
    response: resultOf(subscriptionStatsSchema),
    errors: [],
  }),
] satisfies RouteSpec[];

import type { InternalCaller } from '@platform/auth';
import { SUBSCRIPTION_STATUSES, type subscriptionStatsRoutes, type SubscriptionStats } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { BillingDb } from '../db/tables';
import type { BillingContext } from '../domain/context';

type StatusCounts = SubscriptionStats['by_product'][number]['by_status'];

/** The partner's subscriptions per product and status (subscriptions_domain serves the partner's rows). */
const countSubscriptions = (db: Kysely<BillingDb>, partnerId: string) =>
  db
    .selectFrom('subscriptions')
    .select(['product_id', 'status', sql<number>`count(*)::int`.as('n')])
    .where('partner_id', '=', partnerId)
    .groupBy(['product_id', 'status'])
    .execute();

/** Every product of the catalogue in its order, each status 0 unless the partner has some. */
export async function subscriptionStats(ctx: BillingContext, partnerId: string): Promise<SubscriptionStats> {
  const [products, counts] = await Promise.all([ctx.catalogue.products(), countSubscriptions(ctx.db, partnerId)]);
  const by_product = products.map((product) => {
    const by_status = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, 0])) as StatusCounts;
    for (const row of counts) {
      if (row.product_id === product.id && row.status in by_status) by_status[row.status as keyof StatusCounts] = row.n;
    }
    const total = Object.values(by_status).reduce((sum, n) => sum + n, 0);
    return { product_code: product.code, product_name: product.name, active: by_status.ACTIVE, total, by_status };
  });
  return { by_product };
}

/** The portal Dashboard's subscription numbers, always the caller's partner's. */
export function subscriptionStatsHandlers(
  ctx: BillingContext,
): Handlers<(typeof subscriptionStatsRoutes)[number], InternalCaller> {
  return {
    getSubscriptionStats: async ({ caller }) => ({ result: await subscriptionStats(ctx, caller.partnerId) }),
  };
}

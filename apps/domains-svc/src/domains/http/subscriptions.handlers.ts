import type { InternalCaller } from '@platform/auth';
import type { subscriptionChangeRoutes } from '@platform/contracts';
import type { Handlers } from '@platform/http';
import type { DomainsContext } from '../../context';
import { changeDomainProduct, changeDomainProducts } from '../domain/subscription-change.service';

/** The spec's subscription product changes, single and bulk. */
export function subscriptionHandlers(
  ctx: DomainsContext,
): Handlers<(typeof subscriptionChangeRoutes)[number], InternalCaller> {
  return {
    changeSubscriptionProduct: async ({ caller, params, body }) => ({
      result: await changeDomainProduct(ctx, caller, params.domainId, body),
    }),
    bulkChangeSubscriptionProduct: async ({ caller, body }) => ({
      result: await changeDomainProducts(ctx, caller, body),
    }),
  };
}

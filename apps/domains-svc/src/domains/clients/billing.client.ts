import { billingInternalRoutes, productRoutes, routeOf, type Product } from '@platform/contracts';
import { AppError } from '@platform/http';
import type { ServiceCaller } from '@platform/service';
import type { BillingPort } from '../../context';

const listProducts = routeOf(productRoutes, 'listProducts');
const changeSubscriptionProducts = routeOf(billingInternalRoutes, 'changeSubscriptionProducts');

/** domains-svc reads the catalogue as itself, not as a partner (whose key may lack products:read). */
const SELF = { partnerId: 'domains-svc', keyId: 'domains-svc' };

/** billing-svc as domains-svc uses it: the catalogue, and product changes on a partner's behalf. */
export function billingClient(target: () => ServiceCaller): BillingPort & { catalogue(): Promise<Product[]> } {
  const billing = () => {
    try {
      return target();
    } catch {
      // Not configured to call other services (no SERVICE_JWT_PRIVATE_KEY): as good as unreachable.
      throw new AppError('SERVICE.UNAVAILABLE', 'The billing service is unavailable; retry later.');
    }
  };
  return {
    catalogue: async () => (await billing().call(listProducts, { as: SELF })).result,
    changeProducts: async (caller, changes) => {
      const as = { partnerId: caller.partnerId, keyId: `domains-svc:${caller.partnerId}` };
      return (await billing().call(changeSubscriptionProducts, { as, body: { changes } })).result;
    },
  };
}

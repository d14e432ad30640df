import { z } from 'zod';
import type { InternalCaller } from '@platform/auth';
import { productSchema, resultOf, subscriptionProductChangeResultSchema, type Product } from '@platform/contracts';
import { AppError } from '@platform/http';
import type { ServiceCaller } from '@platform/service';
import type { BillingPort, Caller } from '../domain/context';

/** domains-svc reads the catalogue as itself, not as a partner (whose key may lack products:read). */
const SELF: InternalCaller = { partnerId: 'domains-svc', keyId: 'domains-svc', permissions: ['products:read'], requiredFields: [] };

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
    catalogue: async () => (await billing().getJson(SELF, '/portal/products', resultOf(z.array(productSchema)))).result,
    changeProducts: async (caller: Caller, changes) => {
      const asPartner: InternalCaller = { partnerId: caller.partnerId, keyId: `domains-svc:${caller.partnerId}`, permissions: ['subscriptions:write'], requiredFields: [] };
      return (await billing().postJson(asPartner, '/internal/subscriptions/product', { changes }, resultOf(z.array(subscriptionProductChangeResultSchema)))).result;
    },
  };
}

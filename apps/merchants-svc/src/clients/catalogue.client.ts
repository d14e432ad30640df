import { productRoutes, routeOf, type Product } from '@platform/contracts';
import { AppError } from '@platform/http';
import type { ServiceCaller } from '@platform/service';
import type { CataloguePort } from '../domain/context';

const listProducts = routeOf(productRoutes, 'listProducts');

/** merchants-svc reads the catalogue as itself, not as a partner (whose key may lack products:read). */
const SELF = { partnerId: 'merchants-svc', keyId: 'merchants-svc' };

/** billing-svc's product catalogue (the one domains-svc resolves codes against), read when a merchant names a default. */
export function catalogueClient(target: () => ServiceCaller): CataloguePort {
  return {
    products: async (): Promise<readonly Product[]> => {
      let billing: ServiceCaller;
      try {
        billing = target();
      } catch {
        // Not configured to call other services (no SERVICE_JWT_PRIVATE_KEY): as good as unreachable.
        throw new AppError('SERVICE.UNAVAILABLE', 'The product catalogue is unavailable; retry later.');
      }
      return (await billing.call(listProducts, { as: SELF })).result;
    },
  };
}

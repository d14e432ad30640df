import type { InternalCaller } from '@platform/auth';
import type { productRoutes } from '@platform/contracts';
import type { Handlers } from '@platform/http';
import { findProduct, type CatalogueSource } from '../domain/catalogue.service';

export function productHandlers(catalogue: CatalogueSource): Handlers<(typeof productRoutes)[number], InternalCaller> {
  return {
    listProducts: async () => ({ result: await catalogue.products() }),
    getProduct: async ({ params }) => ({ result: await findProduct(catalogue, params.idOrCode) }),
  };
}

import { z } from 'zod';
import { resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';
import { productSchema } from './product.schema';

export const productParamsSchema = z.object({
  idOrCode: z.string().min(1).meta({ description: 'Product id (number) or code, e.g. PRO' }),
});

const read = { service: 'billing', permission: 'products:read', tag: 'Products' } as const;

/** The catalogue partners pick product and price list codes from (spec: "obtained from a /products endpoint"). */
export const productRoutes = [
  defineRoute({
    ...read,
    operationId: 'listProducts',
    method: 'get',
    path: '/portal/products',
    summary: 'The product catalogue with every price',
    description:
      'Not paginated. Use a product `code` and a price list `code` when creating a domain or changing its subscription.',
    response: resultOf(z.array(productSchema)),
    errors: [],
  }),
  defineRoute({
    ...read,
    operationId: 'getProduct',
    method: 'get',
    path: '/portal/products/{idOrCode}',
    summary: 'One product by id or code',
    params: productParamsSchema,
    response: resultOf(productSchema),
    errors: ['RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];

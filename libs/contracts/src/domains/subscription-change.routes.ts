import { z } from 'zod';
import { resultOf } from '../common';
import { errorObjectSchema } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import { domainIdParamsSchema } from './domain.schema';

const code = (what: string) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(64)
    .meta({ description: `${what} code (from GET /portal/products)` });

export const productChangeBodySchema = z.object({
  product: code('Product'),
  price_list: code('Price list').optional(),
});
export type ProductChangeBody = z.output<typeof productChangeBodySchema>;

export const BULK_CHANGE_MAX = 100;
const bulkEntrySchema = productChangeBodySchema.extend({ id: z.string().min(1).meta({ description: 'Domain id' }) });
export const bulkProductChangeBodySchema = z.object({
  domains: z
    .union([
      z
        .array(bulkEntrySchema)
        .min(1, 'must hold at least one domain')
        .max(BULK_CHANGE_MAX, `must hold at most ${BULK_CHANGE_MAX} domains`),
      bulkEntrySchema,
    ])
    .transform((d) => (Array.isArray(d) ? d : [d]))
    .meta({ description: `Up to ${BULK_CHANGE_MAX} entries, or one entry as an object` }),
});
export type BulkProductChangeBody = z.output<typeof bulkProductChangeBodySchema>;

export const bulkProductChangeResultSchema = z.object({
  changed: z.array(z.object({ domain_id: z.string(), changed: z.boolean() })),
  failed: z.array(z.object({ domain_id: z.string(), error: errorObjectSchema })),
});

const write = { service: 'domains', permission: 'subscriptions:write', tag: 'Subscriptions' } as const;
const withBody = BODY_ERRORS;

/** The spec's subscription product changes (served by domains-svc, which asks billing-svc to make them). */
export const subscriptionChangeRoutes = [
  defineRoute({
    ...write,
    operationId: 'bulkChangeSubscriptionProduct',
    method: 'post',
    path: '/portal/domains/bulk/subscription/product',
    summary: 'Change the product of up to 100 domains',
    description:
      'Each entry succeeds or fails on its own: `changed[]` and `failed[]` (with an error object). A body that is invalid as a whole (e.g. 101 entries) is a 400 and changes nothing.',
    body: bulkProductChangeBodySchema,
    response: resultOf(bulkProductChangeResultSchema),
    errors: [...withBody, 'SERVICE.UNAVAILABLE'],
  }),
  defineRoute({
    ...write,
    operationId: 'changeSubscriptionProduct',
    method: 'post',
    path: '/portal/domains/{domainId}/subscription/product',
    summary: "Change the product (and price list) of a domain's subscription",
    description:
      '`{changed: false}` when the subscription already has this product and price list. 503 while billing is unavailable.',
    params: domainIdParamsSchema,
    body: productChangeBodySchema,
    response: resultOf(z.object({ changed: z.boolean() })),
    errors: [...withBody, 'RESOURCE.NOT_FOUND', 'SERVICE.UNAVAILABLE'],
  }),
] satisfies RouteSpec[];

import { z } from 'zod';
import { deletedSchema, pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { eventMessageSchema } from '../events';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  createMerchantBodySchema,
  externalMerchantIdParamsSchema,
  listMerchantsQuerySchema,
  merchantDefaultsSchema,
  merchantIdParamsSchema,
  merchantSchema,
  updateMerchantBodySchema,
} from './merchant.schema';

const read = { service: 'merchants', permission: 'merchants:read', tag: 'Merchants' } as const;
const write = { service: 'merchants', permission: 'merchants:write', tag: 'Merchants' } as const;
const byId: ErrorCode[] = ['RESOURCE.NOT_FOUND'];
const withBody = BODY_ERRORS;

/** Merchants: the partner's own ids for its customers, linked to the domains created with them (paths are ours; the spec shows none). */
export const merchantRoutes = [
  defineRoute({
    ...read,
    operationId: 'listMerchants',
    method: 'get',
    path: '/portal/merchants',
    summary: 'List merchants',
    description:
      'Newest first. Besides the named filters, `meta.<key>=<value>` (any number of them, e.g. `?meta.plan=gold`) lists only merchants whose meta holds every such pair.',
    query: listMerchantsQuerySchema,
    response: pageOf(merchantSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...write,
    operationId: 'createMerchant',
    method: 'post',
    path: '/portal/merchants',
    summary: 'Create a merchant',
    description:
      "`merchant_id` is unique per partner: a second one answers 409 MERCHANT.ALREADY_EXISTS with the existing merchant's `id` in `data.id`.",
    body: createMerchantBodySchema,
    response: resultOf(merchantSchema),
    status: 201,
    errors: [...withBody, 'MERCHANT.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...read,
    operationId: 'getMerchant',
    method: 'get',
    path: '/portal/merchants/{merchantId}',
    summary: 'Get a merchant, with the domain that names it',
    params: merchantIdParamsSchema,
    response: resultOf(merchantSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'updateMerchant',
    method: 'put',
    path: '/portal/merchants/{merchantId}',
    summary: 'Change a merchant',
    description:
      "Only the fields sent change; `meta` is replaced whole. A `merchant_id` another merchant has answers 409 MERCHANT.ALREADY_EXISTS. A new `merchant_id` carries the merchant's domain links: its domains' `merchants` and the `merchant_id` filters show the new one on the next request.",
    params: merchantIdParamsSchema,
    body: updateMerchantBodySchema,
    response: resultOf(merchantSchema),
    errors: [...withBody, ...byId, 'MERCHANT.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteMerchant',
    method: 'delete',
    path: '/portal/merchants/{merchantId}',
    summary: 'Delete a merchant',
    description:
      "Its links go with it: its domains' `merchants` no longer show its merchant_id, from the next request on; a merchant created later with the same merchant_id starts unlinked.",
    params: merchantIdParamsSchema,
    response: resultOf(deletedSchema),
    errors: byId,
  }),
] satisfies RouteSpec[];

/** Calls between services (under /internal: never routed by the gateway, not in OpenAPI). */
export const merchantInternalRoutes = [
  defineRoute({
    ...write,
    operationId: 'pushMerchantEvent',
    method: 'post',
    path: '/internal/merchants/events',
    tag: 'Internal',
    summary: 'Apply a domain event now (domains-svc, right after its commit), so the partner reads its own write',
    description:
      'The same message arriving later over RabbitMQ is skipped as a duplicate. `applied` is false for a message already applied or one merchants-svc does not handle.',
    body: eventMessageSchema,
    response: resultOf(z.object({ applied: z.boolean() })),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    ...read,
    operationId: 'getMerchantDefaults',
    method: 'get',
    path: '/internal/merchants/by-merchant-id/{merchantId}',
    tag: 'Internal',
    summary:
      "A merchant's default product and price list, by the partner's merchant_id (domains-svc, on domain create)",
    params: externalMerchantIdParamsSchema,
    response: resultOf(merchantDefaultsSchema),
    errors: byId,
  }),
] satisfies RouteSpec[];

import { z } from 'zod';
import { resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';
import { subscriptionProductChangeResultSchema, subscriptionProductChangesBodySchema } from './subscription.schema';

/** Calls between services (under /internal: never routed by the gateway, not in OpenAPI). */
export const billingInternalRoutes = [
  defineRoute({
    operationId: 'changeSubscriptionProducts',
    method: 'post',
    path: '/internal/subscriptions/product',
    service: 'billing',
    permission: 'subscriptions:write',
    tag: 'Internal',
    summary: 'Change the product and price list of up to 100 subscriptions (domains-svc, for the partner routes)',
    body: subscriptionProductChangesBodySchema,
    response: resultOf(z.array(subscriptionProductChangeResultSchema)),
    errors: ['VALIDATION.INVALID'],
  }),
] satisfies RouteSpec[];

import { z } from 'zod';
import { resultOf } from '../common';
import { eventMessageSchema } from '../events';
import { defineRoute, type RouteSpec } from '../routes';

/** Calls from other services to domains-svc (under /internal: never routed by the gateway, not in OpenAPI). */
export const domainInternalRoutes = [
  defineRoute({
    service: 'domains',
    permission: 'domains:write',
    tag: 'Internal',
    operationId: 'pushDomainsEvent',
    method: 'post',
    path: '/internal/domains/events',
    summary:
      "Apply a merchant event now (merchants-svc, right after its commit), so a rename or delete shows on the partner's next domain read",
    description:
      'The same message arriving later over RabbitMQ is skipped as a duplicate. `applied` is false for a message already applied or one domains-svc does not handle.',
    body: eventMessageSchema,
    response: resultOf(z.object({ applied: z.boolean() })),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];

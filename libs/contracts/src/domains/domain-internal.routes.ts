import { z } from 'zod';
import { resultOf } from '../common';
import { eventMessageSchema } from '../events';
import { defineRoute, type RouteSpec } from '../routes';
import { domainIdParamsSchema } from './domain.schema';

/** Whose a domain is, as the gateway needs it for the owner console's sign-in links (no partner asks). */
export const domainOwnerSchema = z.object({
  partner_id: z.string(),
  company_id: z.string(),
  account_email: z.string(),
  hostname: z.string(),
});
export type DomainOwner = z.output<typeof domainOwnerSchema>;

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
  defineRoute({
    service: 'domains',
    permission: 'domains:read',
    internalCaller: 'gateway',
    tag: 'Internal',
    operationId: 'getDomainOwner',
    method: 'get',
    path: '/internal/domains/{domainId}/owner',
    summary:
      "A domain's partner, customer company, account_email and hostname, by its id alone (the gateway, for the owner console's sign-in links)",
    description: 'No such domain (or an id that is no UUID): 404.',
    params: domainIdParamsSchema,
    response: resultOf(domainOwnerSchema),
    errors: ['RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];

import { pageOf, resultOf } from '../common';
import {
  dataRequestIdParamsSchema,
  dataRequestSchema,
  ownerDataRequestsQuerySchema,
  updateDataRequestBodySchema,
} from '../consent/data-request.schema';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import { ownerDomainParamsSchema } from './owner-console.schema';

const console = { service: 'gateway', access: 'owner', tag: 'Owner console' } as const;
const domain: ErrorCode[] = ['AUTH.SESSION_REQUIRED', 'AUTH.FORBIDDEN', 'SERVICE.UNAVAILABLE', 'RESOURCE.NOT_FOUND'];
const ONE_DOMAIN =
  "One of the signed-in customer's domains; any other domain id (or another domain's request) answers 404.";
const requestParams = ownerDomainParamsSchema.extend(dataRequestIdParamsSchema.shape);

/** The console's inbox of data subject requests: VIEWER reads, ADMIN works them (the partner routes' rules). */
export const ownerRequestRoutes = [
  defineRoute({
    ...console,
    ownerRole: 'VIEWER',
    operationId: 'listOwnerRequests',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/requests',
    summary: "The domain's data subject requests, newest first",
    description: `${ONE_DOMAIN} Filters: status, due_before, due_after.`,
    params: ownerDomainParamsSchema,
    query: ownerDataRequestsQuerySchema,
    response: pageOf(dataRequestSchema),
    errors: [...domain, 'VALIDATION.INVALID'],
  }),
  defineRoute({
    ...console,
    ownerRole: 'VIEWER',
    operationId: 'getOwnerRequest',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/requests/{requestId}',
    summary: 'A data subject request with its history',
    description: ONE_DOMAIN,
    params: requestParams,
    response: resultOf(dataRequestSchema),
    errors: domain,
  }),
  defineRoute({
    ...console,
    ownerRole: 'ADMIN',
    operationId: 'updateOwnerRequest',
    method: 'patch',
    path: '/portal/owner/domains/{domainId}/requests/{requestId}',
    summary: 'Move a request on, extend its deadline, or add a note',
    description: `${ONE_DOMAIN} The rules of PATCH /portal/instance/company/requests/{requestId}.`,
    params: requestParams,
    body: updateDataRequestBodySchema,
    response: resultOf(dataRequestSchema),
    errors: [...BODY_ERRORS, 'AUTH.CSRF', ...domain, 'DATA_REQUEST.INVALID_TRANSITION'],
  }),
] satisfies RouteSpec[];

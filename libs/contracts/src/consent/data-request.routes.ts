import { pageOf, resultOf } from '../common';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  confirmDataRequestBodySchema,
  confirmedDataRequestSchema,
  dataRequestIdParamsSchema,
  dataRequestSchema,
  getDataRequestQuerySchema,
  listDataRequestsQuerySchema,
  updateDataRequestBodySchema,
} from './data-request.schema';

const read = { service: 'consent', permission: 'records:read', tag: 'Data subject requests' } as const;
const write = { service: 'consent', permission: 'instance:write', tag: 'Data subject requests' } as const;
const CUSTOMER =
  "`merchant_id` or `domain_id` is required (400 otherwise). A domain or merchant that is not the partner's: 404.";

/** The partner's (and, through the gateway, the site owner's) data subject requests. */
export const dataRequestRoutes = [
  defineRoute({
    ...read,
    operationId: 'listDataRequests',
    method: 'get',
    path: '/portal/instance/company/requests',
    summary: 'List data subject requests',
    description: `${CUSTOMER} Newest first; filter by \`status\` and by due date (\`due_before\`, \`due_after\`: ISO 8601).`,
    query: listDataRequestsQuerySchema,
    response: pageOf(dataRequestSchema),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    ...read,
    operationId: 'getDataRequest',
    method: 'get',
    path: '/portal/instance/company/requests/{requestId}',
    summary: 'Get a data subject request with its history',
    description: `${CUSTOMER} The request must belong to it (404 otherwise).`,
    params: dataRequestIdParamsSchema,
    query: getDataRequestQuerySchema,
    response: resultOf(dataRequestSchema),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    ...write,
    operationId: 'updateDataRequest',
    method: 'patch',
    path: '/portal/instance/company/requests/{requestId}',
    summary: 'Work a data subject request: move its status, extend its deadline once, add a note',
    description:
      `${CUSTOMER} VERIFIED -> IN_PROGRESS -> COMPLETED or REJECTED (a rejection needs a note). Closing e-mails the ` +
      'requester the note and emits data_request.closed. One extension per request (+60 days under GDPR-like laws, ' +
      '+45 under US state laws), with its reason. A move the status does not allow (or a second extension): 409.',
    params: dataRequestIdParamsSchema,
    query: getDataRequestQuerySchema,
    body: updateDataRequestBodySchema,
    response: resultOf(dataRequestSchema),
    errors: [...BODY_ERRORS, 'RESOURCE.NOT_FOUND', 'DATA_REQUEST.INVALID_TRANSITION'],
  }),
] satisfies RouteSpec[];

/** The requester's confirmation, from the gateway's page the e-mailed link opens (no API key, no property). */
export const dataRequestPublicRoutes = [
  defineRoute({
    service: 'consent',
    access: 'public',
    tag: 'Widget (public)',
    operationId: 'confirmDataRequest',
    method: 'post',
    path: '/widget/v1/requests/confirmations',
    summary: "Confirm a data subject request with the token of the requester's e-mailed link",
    description:
      'The request becomes VERIFIED and its due date is set; the same token again answers the same. An unknown, ' +
      'used-up or expired token: 404 DATA_REQUEST.LINK_INVALID.',
    body: confirmDataRequestBodySchema,
    response: resultOf(confirmedDataRequestSchema),
    errors: [...BODY_ERRORS, 'DATA_REQUEST.LINK_INVALID'],
  }),
] satisfies RouteSpec[];

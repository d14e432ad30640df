import { pageOf, resultOf } from '../common';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  consentRecordSchema,
  getRecordQuerySchema,
  listRecordsQuerySchema,
  recordIdParamsSchema,
} from './consent-record.schema';
import {
  dsarAnswerSchema,
  dsarBodySchema,
  jwksSchema,
  propertyIdParamsSchema,
  receiptBodySchema,
} from './widget-input.schema';

const records = { service: 'consent', permission: 'records:read', tag: 'Consent records' } as const;
const widget = { service: 'consent', access: 'public', tag: 'Widget (public)' } as const;

/** The partner reads its properties' consent records (spec: Consent records). */
export const consentRecordRoutes = [
  defineRoute({
    ...records,
    operationId: 'listRecords',
    method: 'get',
    path: '/portal/instance/company/records',
    summary: 'List consent records',
    description:
      '`merchant_id` or `domain_id` is required (400 otherwise). Newest first. A domain or merchant of another partner lists nothing.',
    query: listRecordsQuerySchema,
    response: pageOf(consentRecordSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...records,
    operationId: 'getRecord',
    method: 'get',
    path: '/portal/instance/company/records/{id}',
    summary: 'Get a consent record',
    description:
      "`merchant_id` or `domain_id` is required; the record must belong to it (404 otherwise, also for another partner's record).",
    params: recordIdParamsSchema,
    query: getRecordQuerySchema,
    response: resultOf(consentRecordSchema),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];

const ORIGIN =
  "The `Origin` host must be the property's hostname or one of its subdomains (403 WIDGET.ORIGIN_NOT_ALLOWED).";

/** What the widget and anyone verifying a record call without an API key. */
export const consentPublicRoutes = [
  defineRoute({
    ...widget,
    operationId: 'createReceipt',
    method: 'post',
    path: '/widget/v1/properties/{propertyId}/receipts',
    summary: "Record a visitor's choice as a signed consent record",
    description: `${ORIGIN} The same \`nonce\` again answers 400 RECEIPT.REPLAYED and stores nothing.`,
    params: propertyIdParamsSchema,
    body: receiptBodySchema,
    response: resultOf(consentRecordSchema),
    status: 201,
    errors: [...BODY_ERRORS, 'RESOURCE.NOT_FOUND', 'WIDGET.ORIGIN_NOT_ALLOWED', 'RECEIPT.REPLAYED'],
  }),
  defineRoute({
    ...widget,
    operationId: 'createDataRequest',
    method: 'post',
    path: '/widget/v1/properties/{propertyId}/requests',
    summary: 'A data subject request (access, deletion, correction, opt-out of sale or sharing)',
    description: `${ORIGIN} The company's owner is e-mailed; an opt_out is also recorded as a receipt.`,
    params: propertyIdParamsSchema,
    body: dsarBodySchema,
    response: resultOf(dsarAnswerSchema),
    status: 202,
    errors: [...BODY_ERRORS, 'RESOURCE.NOT_FOUND', 'WIDGET.ORIGIN_NOT_ALLOWED'],
  }),
  defineRoute({
    ...widget,
    tag: 'Consent records',
    operationId: 'getRecordSigningKeys',
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'The public keys of record signatures (a JWKS, RFC 7517)',
    description:
      'A plain JWKS (not in the `result` envelope) so JWKS clients read it as it is. Retired keys stay listed: old records still verify.',
    response: jwksSchema,
    errors: [],
  }),
] satisfies RouteSpec[];

import { resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  instanceCompanySchema,
  instancePropertySchema,
  instanceQuerySchema,
  updateInstanceCompanyBodySchema,
  updateInstancePropertyBodySchema,
} from './instance.schema';

const read = { service: 'domains', permission: 'instance:read', tag: 'Instance' } as const;
const write = { service: 'domains', permission: 'instance:write', tag: 'Instance' } as const;
const CUSTOMER =
  'Exactly one of `merchant_id` or `domain_id` names the customer (none or both: 400). A merchant linked to several ' +
  "domains answers 409 MERCHANT.AMBIGUOUS (`data.domain_ids`): name one with `domain_id`. Another partner's domain or merchant: 404.";
const lookup: ErrorCode[] = ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND', 'MERCHANT.AMBIGUOUS'];

/** The customer's company and property (the widget's look and features), named by merchant_id or domain_id. */
export const instanceRoutes = [
  defineRoute({
    ...read,
    operationId: 'getInstanceCompany',
    method: 'get',
    path: '/portal/instance/company',
    summary: "Get the customer's company",
    description: CUSTOMER,
    query: instanceQuerySchema,
    response: resultOf(instanceCompanySchema),
    errors: lookup,
  }),
  defineRoute({
    ...write,
    operationId: 'updateInstanceCompany',
    method: 'put',
    path: '/portal/instance/company',
    summary: "Update the customer's company",
    description:
      `${CUSTOMER} A partial body; answers the company after the change. The company is shared by every domain ` +
      'that reuses it (company_setup=false), so they all show the change.',
    query: instanceQuerySchema,
    body: updateInstanceCompanyBodySchema,
    response: resultOf(instanceCompanySchema),
    errors: [...BODY_ERRORS, ...lookup],
  }),
  defineRoute({
    ...read,
    operationId: 'getInstanceProperty',
    method: 'get',
    path: '/portal/instance/property',
    summary: "Get the customer's property (widget settings)",
    description: `${CUSTOMER} The shape of property.updated's data.`,
    query: instanceQuerySchema,
    response: resultOf(instancePropertySchema),
    errors: lookup,
  }),
  defineRoute({
    ...write,
    operationId: 'updateInstanceProperty',
    method: 'put',
    path: '/portal/instance/property',
    summary: "Update the customer's property (widget settings)",
    description:
      `${CUSTOMER} A partial body; answers the property after the change. A change emits property.updated with ` +
      '`property_id` and one param per changed field (an unchanged PUT emits nothing); the widget shows it on its next view.',
    query: instanceQuerySchema,
    body: updateInstancePropertyBodySchema,
    response: resultOf(instancePropertySchema),
    errors: [...BODY_ERRORS, ...lookup],
  }),
] satisfies RouteSpec[];

import { z } from 'zod';
import { deletedSchema, pageOf, resultOf } from '../common';
import { consentRecordSchema } from '../consent/consent-record.schema';
import { consentFiguresSchema, ownerStatsQuerySchema, RECORDS_EXPORT_MEDIA } from '../consent/consent-figures.routes';
import type { ErrorCode } from '../errors';
import {
  instanceCompanySchema,
  instancePropertySchema,
  updateInstanceCompanyBodySchema,
  updateInstancePropertyBodySchema,
} from '../domains/instance.schema';
import { installCheckSchema } from '../domains/install-check.schema';
import { scanReportSchema } from '../domains/scan.schema';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  accessUserIdParamsSchema,
  accessUserSchema,
  inviteAccessUserBodySchema,
  updateAccessUserBodySchema,
} from './owner-access.schema';
import {
  cookieDeclarationSchema,
  ownerDomainParamsSchema,
  ownerRecordsExportQuerySchema,
  ownerRecordsQuerySchema,
  ownerUsersQuerySchema,
} from './owner-console.schema';
import { ownerRequestRoutes } from './owner-requests.routes';

const console = { service: 'gateway', access: 'owner', tag: 'Owner console' } as const;
const viewer = { ...console, ownerRole: 'VIEWER' } as const;
const admin = { ...console, ownerRole: 'ADMIN' } as const;
const session: ErrorCode[] = ['AUTH.SESSION_REQUIRED', 'AUTH.FORBIDDEN', 'SERVICE.UNAVAILABLE'];
const domain: ErrorCode[] = [...session, 'RESOURCE.NOT_FOUND'];
const writes: ErrorCode[] = [...BODY_ERRORS, 'AUTH.CSRF'];
const ONE_DOMAIN = "One of the signed-in customer's domains; any other domain id answers 404.";

/**
 * What a site owner does in the console, on the customer's own domains: the widget's look, the
 * company, the install check, the scan report and cookie declaration, consent records, and the
 * account's users. Each acts as the instance endpoints do, for the customer's partner.
 */
export const ownerConsoleRoutes = [
  defineRoute({
    ...viewer,
    operationId: 'getOwnerProperty',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/property',
    summary: "The domain's widget look and features",
    description: ONE_DOMAIN,
    params: ownerDomainParamsSchema,
    response: resultOf(instancePropertySchema),
    errors: domain,
  }),
  defineRoute({
    ...admin,
    operationId: 'updateOwnerProperty',
    method: 'put',
    path: '/portal/owner/domains/{domainId}/property',
    summary: "Change the domain's widget look and features",
    description: `${ONE_DOMAIN} The rules of PUT /portal/instance/property (a partial body; property.updated).`,
    params: ownerDomainParamsSchema,
    body: updateInstancePropertyBodySchema,
    response: resultOf(instancePropertySchema),
    errors: [...writes, ...domain],
  }),
  defineRoute({
    ...viewer,
    operationId: 'getOwnerCompany',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/company',
    summary: 'The company and DPO details the widget and the records name',
    description: ONE_DOMAIN,
    params: ownerDomainParamsSchema,
    response: resultOf(instanceCompanySchema),
    errors: domain,
  }),
  defineRoute({
    ...admin,
    operationId: 'updateOwnerCompany',
    method: 'put',
    path: '/portal/owner/domains/{domainId}/company',
    summary: 'Change the company and DPO details',
    description: `${ONE_DOMAIN} The rules of PUT /portal/instance/company (a partial body).`,
    params: ownerDomainParamsSchema,
    body: updateInstanceCompanyBodySchema,
    response: resultOf(instanceCompanySchema),
    errors: [...writes, ...domain],
  }),
  defineRoute({
    ...viewer,
    operationId: 'checkOwnerInstall',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/install-check',
    summary: 'Check that the snippet is on the site, first in <head>',
    description: `${ONE_DOMAIN} Reads the home page now (GET /portal/domains/{domainId}/install-check).`,
    params: ownerDomainParamsSchema,
    upstreamTimeoutMs: 30_000,
    response: resultOf(installCheckSchema),
    errors: domain,
  }),
  defineRoute({
    ...viewer,
    operationId: 'getOwnerScan',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/scan',
    summary: "The domain's latest scan report",
    description: `${ONE_DOMAIN} 404 when the domain was never scanned.`,
    params: ownerDomainParamsSchema,
    response: resultOf(scanReportSchema),
    errors: domain,
  }),
  defineRoute({
    ...admin,
    operationId: 'startOwnerScan',
    method: 'post',
    path: '/portal/owner/domains/{domainId}/scan',
    summary: 'Scan the site again',
    description: `${ONE_DOMAIN} The rules of POST /portal/domains/{domainId}/scan (409 while one runs, 429 within the minimum interval).`,
    params: ownerDomainParamsSchema,
    response: resultOf(scanReportSchema),
    status: 202,
    errors: [...domain, 'AUTH.CSRF', 'DOMAIN.SCAN_IN_PROGRESS', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...viewer,
    operationId: 'getOwnerCookieDeclaration',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/cookie-declaration',
    summary: 'The cookie declaration for the privacy policy',
    description:
      `${ONE_DOMAIN} Made from the latest scan when it completed. Every category is listed; none yet, or the latest ` +
      'scan still running or failed: every category with no cookies and scanned_at null.',
    params: ownerDomainParamsSchema,
    response: resultOf(cookieDeclarationSchema),
    errors: domain,
  }),
  defineRoute({
    ...viewer,
    operationId: 'listOwnerRecords',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/records',
    summary: "The domain's consent records, newest first",
    description: ONE_DOMAIN,
    params: ownerDomainParamsSchema,
    query: ownerRecordsQuerySchema,
    response: pageOf(consentRecordSchema),
    errors: [...domain, 'VALIDATION.INVALID'],
  }),
  defineRoute({
    ...viewer,
    operationId: 'exportOwnerRecords',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/records/export',
    summary: "Export the domain's consent records (CSV or NDJSON), streamed",
    description: `${ONE_DOMAIN} Oldest first, every record of the range (default: all), sent as it is read; cells that a spreadsheet would run as a formula are quoted.`,
    params: ownerDomainParamsSchema,
    query: ownerRecordsExportQuerySchema,
    download: Object.values(RECORDS_EXPORT_MEDIA),
    streamed: true,
    upstreamTimeoutMs: 600_000,
    response: z.string(),
    errors: [...domain, 'VALIDATION.INVALID'],
  }),
  defineRoute({
    ...viewer,
    operationId: 'getOwnerStats',
    method: 'get',
    path: '/portal/owner/domains/{domainId}/stats',
    summary: "The domain's consent figures per day",
    description: `${ONE_DOMAIN} What GET /portal/instance/property/stats answers for the domain.`,
    params: ownerDomainParamsSchema,
    query: ownerStatsQuerySchema,
    response: resultOf(consentFiguresSchema),
    errors: [...domain, 'VALIDATION.INVALID'],
  }),
  defineRoute({
    ...viewer,
    operationId: 'listOwnerUsers',
    method: 'get',
    path: '/portal/owner/users',
    summary: "The account's users, oldest first",
    query: ownerUsersQuerySchema,
    response: pageOf(accessUserSchema),
    errors: [...session, 'VALIDATION.INVALID'],
  }),
  defineRoute({
    ...admin,
    operationId: 'inviteOwnerUser',
    method: 'post',
    path: '/portal/owner/users',
    summary: 'Invite a user to the account (e-mails a sign-in link)',
    description: 'Only an OWNER may invite an OWNER (403 otherwise). 409 when the address already is a user.',
    body: inviteAccessUserBodySchema,
    response: resultOf(accessUserSchema),
    status: 201,
    errors: [...writes, ...session, 'ACCESS_USER.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...admin,
    operationId: 'updateOwnerUser',
    method: 'patch',
    path: '/portal/owner/users/{userId}',
    summary: "Change a user's role, or turn their access off or on",
    description:
      'Only an OWNER may grant or take OWNER (403 otherwise); the last OWNER with access cannot be demoted or ' +
      'turned off (409 ACCESS_USER.LAST_OWNER). Access off ends their sessions at once.',
    params: accessUserIdParamsSchema,
    body: updateAccessUserBodySchema,
    response: resultOf(accessUserSchema),
    errors: [...writes, ...session, 'RESOURCE.NOT_FOUND', 'ACCESS_USER.LAST_OWNER'],
  }),
  defineRoute({
    ...admin,
    operationId: 'deleteOwnerUser',
    method: 'delete',
    path: '/portal/owner/users/{userId}',
    summary: 'Remove a user from the account (their sessions end at once)',
    description:
      'Only an OWNER may remove an OWNER; the last OWNER with access cannot be removed (409 ACCESS_USER.LAST_OWNER).',
    params: accessUserIdParamsSchema,
    response: resultOf(deletedSchema),
    errors: [...session, 'AUTH.CSRF', 'RESOURCE.NOT_FOUND', 'ACCESS_USER.LAST_OWNER'],
  }),
  // The inbox of data subject requests (owner-requests.routes.ts).
  ...ownerRequestRoutes,
] satisfies RouteSpec[];

import { z } from 'zod';
import { deletedSchema, emptyResultSchema, pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  createDomainBodySchema,
  domainAckSchema,
  domainCreatedSchema,
  domainDetailSchema,
  domainIdParamsSchema,
  domainSchema,
  inviteDomainBodySchema,
  updateDomainBodySchema,
} from './domain.schema';
import { listDomainsQuerySchema } from './domain-query.schema';
import { emailTemplateRoutes } from './email-templates.routes';
import { subscriptionChangeRoutes } from './subscription-change.routes';
import {
  subdomainBodySchema,
  subdomainDeletedSchema,
  subdomainParamsSchema,
  subdomainSchema,
} from './subdomain.schema';
import { installCheckSchema } from './install-check.schema';
import { scanReportSchema } from './scan.schema';
import { domainStatsRoutes } from './domain-stats.routes';
import { instanceRoutes } from './instance.routes';
import { domainImportRoutes } from './imports.routes';

const read = { service: 'domains', permission: 'domains:read' } as const;
const write = { service: 'domains', permission: 'domains:write' } as const;
const DOMAINS = 'Domains';
const SUBDOMAINS = 'Subdomains';
const byId: ErrorCode[] = ['RESOURCE.NOT_FOUND'];
const withBody = BODY_ERRORS;

/** Every Domains operation of the spec. */
export const domainRoutes = [
  defineRoute({
    ...read,
    operationId: 'listDomains',
    method: 'get',
    path: '/portal/domains',
    tag: DOMAINS,
    summary: 'List domains',
    description: 'Newest first. INACTIVE domains are left out unless is_active=false or status=INACTIVE is asked.',
    query: listDomainsQuerySchema,
    response: pageOf(domainSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...write,
    operationId: 'createDomain',
    method: 'post',
    path: '/portal/domains',
    tag: DOMAINS,
    summary: 'Create a domain',
    description:
      'Creates the company (or reuses it), the property and the domain; status NEW. SCAN and SCAN_INVITE queue a scan of the site: ' +
      'when it ends the domain moves to SCANNED (from NEW) and the owner gets the report (SCAN) or the invitation (SCAN_INVITE: INVITED).',
    body: createDomainBodySchema,
    response: resultOf(domainCreatedSchema),
    errors: [...withBody, 'DOMAIN.ALREADY_EXISTS'],
  }),
  defineRoute({
    ...read,
    operationId: 'getDomain',
    method: 'get',
    path: '/portal/domains/{domainId}',
    tag: DOMAINS,
    summary: 'Get a domain with its property',
    params: domainIdParamsSchema,
    response: resultOf(domainDetailSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'updateDomain',
    method: 'put',
    path: '/portal/domains/{domainId}',
    tag: DOMAINS,
    summary: 'Update company and widget settings of a domain',
    params: domainIdParamsSchema,
    body: updateDomainBodySchema,
    response: resultOf(domainAckSchema),
    errors: [...withBody, ...byId],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteDomain',
    userPermission: 'domains:delete',
    audit: 'domain.deleted',
    method: 'delete',
    path: '/portal/domains/{domainId}',
    tag: DOMAINS,
    summary: 'Delete a domain, its subdomains, property and subscription',
    params: domainIdParamsSchema,
    response: resultOf(deletedSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'deactivateDomain',
    audit: 'domain.deactivated',
    method: 'post',
    path: '/portal/domains/{domainId}/deactivate',
    tag: DOMAINS,
    summary: 'Deactivate an ACTIVE domain',
    params: domainIdParamsSchema,
    response: emptyResultSchema,
    errors: [...byId, 'DOMAIN.INVALID_STATE'],
  }),
  defineRoute({
    ...write,
    operationId: 'activateDomain',
    method: 'post',
    path: '/portal/domains/{domainId}/activate',
    tag: DOMAINS,
    summary: 'Activate an INACTIVE domain',
    params: domainIdParamsSchema,
    response: emptyResultSchema,
    errors: [...byId, 'DOMAIN.INVALID_STATE'],
  }),
  defineRoute({
    ...write,
    operationId: 'inviteDomain',
    method: 'post',
    path: '/portal/domains/{domainId}/invite',
    tag: DOMAINS,
    summary: 'Invite the domain owner',
    description:
      'Allowed from NEW, SCANNED, INVITED and INACTIVE. `send_invite` is an alias of `send_intro`; send_intro wins.',
    params: domainIdParamsSchema,
    body: inviteDomainBodySchema,
    response: emptyResultSchema,
    errors: [...withBody, ...byId, 'DOMAIN.INVALID_STATE'],
  }),
] satisfies RouteSpec[];

/** Every Subdomains operation of the spec, plus the contract's DELETE .../subdomains with a body. */
export const subdomainRoutes = [
  defineRoute({
    ...read,
    operationId: 'listSubdomains',
    method: 'get',
    path: '/portal/domains/{domainId}/subdomains',
    tag: SUBDOMAINS,
    summary: 'List the subdomains of a domain',
    params: domainIdParamsSchema,
    response: resultOf(z.array(subdomainSchema)),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'createSubdomain',
    method: 'post',
    path: '/portal/domains/{domainId}/subdomains',
    tag: SUBDOMAINS,
    summary: 'Add a subdomain (full hostname or label)',
    params: domainIdParamsSchema,
    body: subdomainBodySchema,
    response: resultOf(subdomainSchema),
    errors: [...withBody, ...byId, 'SUBDOMAIN.ALREADY_EXISTS', 'SUBDOMAIN.LIMIT_REACHED'],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteSubdomain',
    method: 'delete',
    path: '/portal/domains/{domainId}/subdomains/{subdomain}',
    tag: SUBDOMAINS,
    summary: 'Remove a subdomain by hostname, label or id',
    params: subdomainParamsSchema,
    response: resultOf(subdomainDeletedSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'deleteSubdomainByBody',
    method: 'delete',
    path: '/portal/domains/{domainId}/subdomains',
    tag: SUBDOMAINS,
    summary: 'Remove a subdomain named in the body',
    params: domainIdParamsSchema,
    body: subdomainBodySchema,
    response: resultOf(subdomainDeletedSchema),
    errors: [...withBody, ...byId],
  }),
] satisfies RouteSpec[];

const SCANS = 'Scans';

/** The site scanner: start a scan of a domain's site, read its latest report. */
export const scanRoutes = [
  defineRoute({
    ...write,
    operationId: 'startDomainScan',
    method: 'post',
    path: '/portal/domains/{domainId}/scan',
    tag: SCANS,
    summary: "Scan the domain's site",
    description:
      'Queues a scan (202, the report with status queued): the home page (https, http when https cannot connect) and a bounded number of ' +
      'same-site pages it links to, their scripts, cookies and iframes classified. 409 DOMAIN.SCAN_IN_PROGRESS while a scan of the domain ' +
      'is queued or running; 429 RATE.LIMITED with Retry-After when the last one ended less than the minimum interval ago (10 minutes by default).',
    params: domainIdParamsSchema,
    response: resultOf(scanReportSchema),
    status: 202,
    errors: [...byId, 'DOMAIN.SCAN_IN_PROGRESS', 'RATE.LIMITED'],
  }),
  defineRoute({
    ...read,
    operationId: 'getDomainScan',
    method: 'get',
    path: '/portal/domains/{domainId}/scan',
    tag: SCANS,
    summary: 'Read the latest scan report of the domain',
    description:
      'status queued, running, completed or failed; 404 RESOURCE.NOT_FOUND when the domain was never scanned.',
    params: domainIdParamsSchema,
    response: resultOf(scanReportSchema),
    errors: byId,
  }),
  defineRoute({
    ...read,
    operationId: 'checkDomainInstall',
    method: 'get',
    path: '/portal/domains/{domainId}/install-check',
    tag: SCANS,
    summary: 'Check that the widget snippet is on the site, first in <head>',
    description:
      "Reads the domain's home page now (https, http when https cannot connect; no scripts run) and answers whether " +
      "the property's snippet is there and no other script comes before it in <head>. UNREACHABLE: the site did not answer " +
      'with a page within the time-out.',
    params: domainIdParamsSchema,
    upstreamTimeoutMs: 30_000,
    response: resultOf(installCheckSchema),
    errors: byId,
  }),
] satisfies RouteSpec[];

/** What domains-svc serves. */
export const domainsServiceRoutes = [
  // Before domainRoutes: /portal/domains/imports/... is matched before /portal/domains/{domainId}/...
  ...domainImportRoutes,
  ...domainRoutes,
  ...subdomainRoutes,
  ...scanRoutes,
  ...subscriptionChangeRoutes,
  ...emailTemplateRoutes,
  ...domainStatsRoutes,
  ...instanceRoutes,
];

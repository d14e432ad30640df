import { z } from 'zod';
import { pageOf, resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';
import {
  IMPORT_MAX_FILE_BYTES,
  importBodySchema,
  importIdParamsSchema,
  importPlanSchema,
  importRowSchema,
  importRowsQuerySchema,
  importSchema,
  importTemplateQuerySchema,
} from './imports.schema';

const TAG = 'Domain imports';
const read = { service: 'domains', permission: 'domains:read', tag: TAG } as const;
const write = { service: 'domains', permission: 'domains:write', tag: TAG } as const;

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Domains from a .csv or .xlsx file (source IMPORT), run as a job. */
export const domainImportRoutes = [
  defineRoute({
    ...write,
    operationId: 'createDomainImport',
    method: 'post',
    path: '/portal/domains/imports',
    summary: 'Import domains from a .csv or .xlsx file',
    description:
      'multipart/form-data with the file in `asset` (columns of GET .../imports/template). Every row is checked like a ' +
      'create-domain body. dry_run=true answers 200 with the plan and stores nothing; otherwise 202 with the import, ' +
      'which a job runs (GET .../imports/{importId}). A file over 10 MB is a 413 REQUEST.TOO_LARGE, over 10,000 rows a 413 ' +
      'IMPORT.TOO_MANY_ROWS; one that cannot be read (malformed, macro-enabled, not .csv/.xlsx, no domain column) a 400 ' +
      'IMPORT.INVALID_FILE. Formula cells and cells starting with = + - @ tab or CR are row errors.',
    multipart: { file: 'asset', maxFileBytes: IMPORT_MAX_FILE_BYTES },
    // The accept reads, plans and stores the whole file before answering (~1-2 s for 10,000 rows, more under load).
    upstreamTimeoutMs: 30_000,
    body: importBodySchema,
    response: resultOf(z.discriminatedUnion('dry_run', [importSchema, importPlanSchema])),
    status: 202,
    errors: [
      'VALIDATION.INVALID',
      'REQUEST.UNSUPPORTED_MEDIA_TYPE',
      'REQUEST.TOO_LARGE',
      'IMPORT.INVALID_FILE',
      'IMPORT.TOO_MANY_ROWS',
    ],
  }),
  defineRoute({
    ...read,
    operationId: 'getDomainImportTemplate',
    method: 'get',
    path: '/portal/domains/imports/template',
    summary: 'Download the import template (the columns and two example rows)',
    query: importTemplateQuerySchema,
    download: ['text/csv', XLSX_MEDIA_TYPE],
    response: z.string(),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...read,
    operationId: 'getDomainImport',
    method: 'get',
    path: '/portal/domains/imports/{importId}',
    summary: 'Get an import: its status and counts',
    params: importIdParamsSchema,
    response: resultOf(importSchema),
    errors: ['RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    ...read,
    operationId: 'listDomainImportRows',
    method: 'get',
    path: '/portal/domains/imports/{importId}/rows',
    summary: "List an import's rows with their results",
    description: 'In file order; a SYNC deactivation (no line) after them.',
    params: importIdParamsSchema,
    query: importRowsQuerySchema,
    response: pageOf(importRowSchema),
    errors: ['RESOURCE.NOT_FOUND', 'VALIDATION.INVALID'],
  }),
] satisfies RouteSpec[];

import { z } from 'zod';
import { paginationQuerySchema, queryBool, uploadedFile } from '../common';
import type { DomainAction } from './domain.schema';
import type { ScanRequester } from './scan.schema';

/** The largest import file (the `asset` field) and the most data rows it may hold (the header row aside). */
export const IMPORT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;

/**
 * The template's columns, in order, and the create-domain field each fills (the header row is
 * matched case-insensitively). company_name is the spec's legal name, company_trade_name the name
 * the company trades under.
 */
export const IMPORT_COLUMNS = [
  { header: 'domain', field: 'domain', example: ['shop.example.com', 'https://www.example.org/'] },
  { header: 'company name', field: 'company_trade_name', example: ['Example Shop', 'Example'] },
  { header: 'company legal name', field: 'company_name', example: ['Example Shop Ltd', 'Example Inc.'] },
  { header: 'company id number', field: 'company_id_number', example: ['12345678', ''] },
  { header: 'owner first name', field: 'account_first_name', example: ['Ada', 'Alan'] },
  { header: 'owner last name', field: 'account_last_name', example: ['Lovelace', 'Turing'] },
  { header: 'e-mail', field: 'account_email', example: ['ada@example.com', 'alan@example.org'] },
  { header: 'phone', field: 'phone_number', example: ['+44 20 7946 0000', ''] },
  { header: 'country', field: 'country', example: ['GB', 'US'] },
  { header: 'state', field: 'state', example: ['', ''] },
  { header: 'city', field: 'city', example: ['London', 'New York'] },
  { header: 'postal code', field: 'postal_code', example: ['EC1A 1BB', '10001'] },
] as const;

/** ADD creates the domains the partner does not have; SYNC also reactivates INACTIVE ones in the file and deactivates ACTIVE ones not in it. */
export const importModeSchema = z.enum(['ADD', 'SYNC']);
export type ImportMode = z.infer<typeof importModeSchema>;
export const importStatusSchema = z.enum(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED']);
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** What a row does: create a domain, reactivate or deactivate one (SYNC), nothing (already there), or nothing for its errors. */
export const importOutcomeSchema = z.enum(['CREATE', 'REACTIVATE', 'DEACTIVATE', 'UNCHANGED', 'INVALID']);
export type ImportOutcome = z.infer<typeof importOutcomeSchema>;
/** PENDING until the job ran it; DONE, FAILED (its errors say why), or SKIPPED (UNCHANGED and INVALID rows). */
export const importRowStateSchema = z.enum(['PENDING', 'DONE', 'FAILED', 'SKIPPED']);
export type ImportRowState = z.infer<typeof importRowStateSchema>;

/**
 * What an import does with each new domain (the names): ENROLL creates it only, ENROLL_SCAN
 * also queues its scan (no e-mail to the owner), ENROLL_SCAN_REPORT scans and e-mails the owner the
 * report (the create's SCAN).
 */
export const importActionSchema = z.enum(['ENROLL', 'ENROLL_SCAN', 'ENROLL_SCAN_REPORT']);
export type ImportAction = z.infer<typeof importActionSchema>;

/**
 * Each import action as a create: the create's `action` (the domain's, and domain.created's), and
 * the scan the create queues when that differs from the action's own (ENROLL_SCAN: a scan requested
 * by IMPORT, which sends no report).
 */
export const IMPORT_ACTION_CREATES: Record<ImportAction, { action: DomainAction; scan?: ScanRequester }> = {
  ENROLL: { action: 'CREATE_SILENT' },
  ENROLL_SCAN: { action: 'CREATE_SILENT', scan: 'IMPORT' },
  ENROLL_SCAN_REPORT: { action: 'SCAN' },
};

/** POST /portal/domains/imports, multipart/form-data. */
export const importBodySchema = z.object({
  asset: uploadedFile('The .csv or .xlsx file (see GET /portal/domains/imports/template), at most 10 MB'),
  action: importActionSchema.default('ENROLL').meta({
    description:
      'What is done with every new domain: ENROLL (create only), ENROLL_SCAN (and scan it), ENROLL_SCAN_REPORT (and e-mail the owner the scan report)',
  }),
  mode: importModeSchema.default('ADD'),
  dry_run: queryBool().default(false).meta({ description: 'true: answer the plan, change nothing' }),
});
export type ImportBody = z.output<typeof importBodySchema>;

export const importRowErrorSchema = z
  .object({
    field: z.string().optional().meta({ description: 'The create-domain field (or column) at fault' }),
    code: z.string().meta({ example: 'VALIDATION.INVALID' }),
    message: z.string(),
  })
  .meta({ id: 'ImportRowError' });
export type ImportRowError = z.infer<typeof importRowErrorSchema>;

/** One row of the plan or of an import: its line in the file (null: a domain SYNC deactivates), what it does and its errors. */
export const importRowSchema = z
  .object({
    row: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Line in the file (the header is line 1); null for a SYNC deactivation' }),
    domain: z.string().meta({ description: 'The hostname (as written when it is not valid)' }),
    outcome: importOutcomeSchema,
    state: importRowStateSchema,
    domain_id: z.string().nullable(),
    errors: z.array(importRowErrorSchema),
  })
  .meta({ id: 'ImportRow' });
export type ImportRow = z.infer<typeof importRowSchema>;

export const importCountsSchema = z
  .object({
    rows: z.number().int().meta({ description: 'Data rows in the file' }),
    create: z.number().int(),
    reactivate: z.number().int(),
    deactivate: z.number().int(),
    unchanged: z.number().int(),
    invalid: z.number().int(),
    pending: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
  })
  .meta({ id: 'ImportCounts' });
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importSchema = z
  .object({
    id: z.string(),
    dry_run: z.literal(false),
    status: importStatusSchema,
    mode: importModeSchema,
    action: importActionSchema,
    file_name: z.string(),
    counts: importCountsSchema,
    created_by: z.object({ type: z.enum(['USER', 'API_KEY']), id: z.string() }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'DomainImport' });
export type DomainImport = z.infer<typeof importSchema>;

/** dry_run=true: what the import would do, every row with its errors; nothing is stored. */
export const importPlanSchema = z
  .object({
    dry_run: z.literal(true),
    mode: importModeSchema,
    action: importActionSchema,
    file_name: z.string(),
    counts: importCountsSchema,
    rows: z.array(importRowSchema),
  })
  .meta({ id: 'DomainImportPlan' });
export type DomainImportPlan = z.infer<typeof importPlanSchema>;

export const importIdParamsSchema = z.object({ importId: z.string().min(1).meta({ description: 'Import id' }) });
export const importRowsQuerySchema = paginationQuerySchema;
export const importTemplateQuerySchema = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });

import { z } from 'zod';

/** What a finding is for, from a maintained source (tracker database, well-known cookie names); unknown = unclassified. */
export const FINDING_CATEGORIES = ['necessary', 'functional', 'analytics', 'marketing', 'unclassified'] as const;
export const findingCategorySchema = z.enum(FINDING_CATEGORIES);
export type FindingCategory = z.infer<typeof findingCategorySchema>;

export const SCAN_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const scanStatusSchema = z.enum(SCAN_STATUSES);
export type ScanStatus = z.infer<typeof scanStatusSchema>;

/**
 * Who asked: the create's action (SCAN, SCAN_INVITE), the partner's POST .../scan (API), continuous
 * scanning (SCHEDULE), an import's ENROLL_SCAN (IMPORT) or a visitor of the partner's scan widget
 * (WIDGET_SCAN). Only SCAN e-mails the owner the report; a widget scan e-mails it to the visitor.
 */
export const SCAN_REQUESTERS = ['SCAN', 'SCAN_INVITE', 'API', 'SCHEDULE', 'IMPORT', 'WIDGET_SCAN'] as const;
export const scanRequesterSchema = z.enum(SCAN_REQUESTERS);
export type ScanRequester = z.infer<typeof scanRequesterSchema>;

export const scanModeSchema = z.enum(['browser', 'http']);
export type ScanMode = z.infer<typeof scanModeSchema>;

const vendor = z.string().nullable().meta({ description: 'The company behind it, when a source names one' });

export const scriptFindingSchema = z.object({
  url: z.string(),
  host: z.string(),
  category: findingCategorySchema,
  vendor,
});
export type ScriptFinding = z.infer<typeof scriptFindingSchema>;

export const cookieFindingSchema = z.object({
  name: z.string(),
  domain: z.string(),
  expires_at: z.string().nullable().meta({ description: 'null: a session cookie' }),
  first_party: z.boolean(),
  category: findingCategorySchema,
  vendor,
});
export type CookieFinding = z.infer<typeof cookieFindingSchema>;

export const iframeFindingSchema = z.object({
  url: z.string(),
  host: z.string(),
  category: findingCategorySchema,
  marked: z.boolean().meta({
    description:
      'true: the iframe is held for consent (data-category and data-src, no src: the widget loads it once its category is ' +
      'granted). false: it loads with the page, before any choice (mark it: see the widget docs, Embeds)',
  }),
});
export type IframeFinding = z.infer<typeof iframeFindingSchema>;

export const scanFindingsSchema = z.object({
  scripts: z.array(scriptFindingSchema),
  cookies: z.array(cookieFindingSchema),
  iframes: z.array(iframeFindingSchema),
  counts: z
    .record(findingCategorySchema, z.number().int())
    .meta({ description: 'Distinct scripts, cookies and iframes per category' }),
});
export type ScanFindings = z.infer<typeof scanFindingsSchema>;

export const scanErrorSchema = z.object({
  url: z.string(),
  code: z.string().meta({ example: 'SCAN.TIMEOUT' }),
  message: z.string(),
});
export type ScanError = z.infer<typeof scanErrorSchema>;

/** The latest scan of a domain: queued, running, or its findings and the errors per page. */
export const scanReportSchema = z
  .object({
    id: z.string(),
    domain_id: z.string(),
    status: scanStatusSchema,
    mode: scanModeSchema
      .nullable()
      .meta({ description: 'browser (headless Chromium) or http (HTML parser); null until it ran' }),
    requested_by: scanRequesterSchema,
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    pages: z.array(z.string()).meta({ description: 'The URLs visited' }),
    findings: scanFindingsSchema,
    errors: z.array(scanErrorSchema),
    created_at: z.string(),
  })
  .meta({ id: 'ScanReport' });
export type ScanReport = z.infer<typeof scanReportSchema>;

import { z } from 'zod';
import { emptyResultSchema, resultOf } from '../common';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  CUSTOMER_REQUIRED,
  customerQueryFields,
  receiptStatusSchema,
  receiptTypeSchema,
} from './consent-record.schema';
import { propertyIdParamsSchema } from './widget-input.schema';

/** A stats read covers this many days at most (a leap year). */
export const CONSENT_STATS_DAYS_MAX = 366;
/** The categories whose opt-in rate the figures give (necessary is always granted). */
export const FIGURE_CATEGORIES = ['functional', 'analytics', 'marketing'] as const;
export type FigureCategory = (typeof FIGURE_CATEGORIES)[number];

const DAY_MS = 86_400_000;
const day = (what: string) =>
  z.iso.date('must be a date YYYY-MM-DD').meta({ description: `${what} (UTC), YYYY-MM-DD` });
const dateRange = { from: day('The first day'), to: day('The last day, included') };

/** Days from `from` to `to`, both included (0 or less when to is before from). */
export const daysInRange = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

const checkRange = (q: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const days = daysInRange(q.from, q.to);
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  else if (days > CONSENT_STATS_DAYS_MAX)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `the range must be at most ${CONSENT_STATS_DAYS_MAX} days` });
};
const requireCustomer = (q: { merchant_id?: string; domain_id?: string }, ctx: z.RefinementCtx) => {
  if (q.merchant_id !== undefined || q.domain_id !== undefined) return;
  for (const path of ['merchant_id', 'domain_id'])
    ctx.addIssue({ code: 'custom', path: [path], message: CUSTOMER_REQUIRED });
};

/** The partner's whole portfolio (no customer named): a range of days. */
export const portfolioStatsQuerySchema = z.object(dateRange).superRefine(checkRange);
/** One domain's or one merchant's figures (one of the two is required). */
export const consentStatsQuerySchema = z
  .object({ ...customerQueryFields, ...dateRange })
  .superRefine(requireCustomer)
  .superRefine(checkRange);
export type ConsentStatsQuery = z.output<typeof consentStatsQuerySchema>;
/** The owner console's figures of one of the customer's domains. */
export const ownerStatsQuerySchema = portfolioStatsQuerySchema;

const count = z.number().int().min(0);
const countFields = {
  notice_views: count.meta({ description: 'Times the notice was shown' }),
  accept_all: count.meta({ description: 'Cookie choices granting every optional category' }),
  reject_all: count.meta({ description: 'Cookie choices refusing every optional category' }),
  custom: count.meta({ description: 'Cookie choices granting some optional categories' }),
  gpc_opt_outs: count.meta({
    description: 'Receipts sent with Global Privacy Control on (an opt-out of sale and sharing)',
  }),
  granted: z
    .object({ functional: count, analytics: count, marketing: count })
    .meta({ description: 'Cookie choices that granted each optional category' }),
};
export const consentDayFiguresSchema = z
  .object({ date: z.iso.date().meta({ description: 'The day (UTC)' }), ...countFields })
  .meta({ id: 'ConsentDayFigures' });
export type ConsentDayFigures = z.infer<typeof consentDayFiguresSchema>;

export const consentFiguresSchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    per_day: z
      .array(consentDayFiguresSchema)
      .meta({ description: 'Every day of the range, oldest first; a quiet day is 0' }),
    totals: z.object(countFields).meta({ description: 'The range summed' }),
    opt_in_rate: z
      .object({ functional: z.number().nullable(), analytics: z.number().nullable(), marketing: z.number().nullable() })
      .meta({
        description:
          "Per category, the share (0 to 1) of the range's cookie choices that granted it; null when there was no choice",
      }),
  })
  .meta({ id: 'ConsentFigures' });
export type ConsentFigures = z.infer<typeof consentFiguresSchema>;

export const RECORDS_EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export const RECORDS_EXPORT_MEDIA = { ndjson: 'application/x-ndjson', csv: 'text/csv' } as const;
export const recordsExportQuerySchema = z
  .object({
    ...customerQueryFields,
    ...dateRange,
    format: z.enum(RECORDS_EXPORT_FORMATS).default('ndjson').meta({ description: 'ndjson (default) or csv' }),
    receipt_type: receiptTypeSchema.optional(),
    receipt_status: receiptStatusSchema.optional(),
  })
  .superRefine(requireCustomer)
  .superRefine((q, ctx) => {
    if (daysInRange(q.from, q.to) < 1)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  });
export type RecordsExportQuery = z.output<typeof recordsExportQuerySchema>;

const stats = { service: 'consent', permission: 'instance:read', tag: 'Consent figures' } as const;
const FIGURES =
  'Counted as each receipt is stored and each notice is shown (UTC days); receipts stored before the counters existed are not counted.';

/** The partner's consent figures and the streamed export of its records. */
export const consentFigureRoutes = [
  defineRoute({
    ...stats,
    operationId: 'getPropertyStats',
    method: 'get',
    path: '/portal/instance/property/stats',
    summary: "A domain's or merchant's consent figures per day",
    description: `\`domain_id\` or \`merchant_id\` is required; at most ${CONSENT_STATS_DAYS_MAX} days. Another partner's domain or merchant, or one with no property, is 404. ${FIGURES}`,
    query: consentStatsQuerySchema,
    response: resultOf(consentFiguresSchema),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
  defineRoute({
    ...stats,
    operationId: 'getPortfolioStats',
    method: 'get',
    path: '/portal/stats/consent',
    summary: "The consent figures of all the partner's domains per day",
    description: `At most ${CONSENT_STATS_DAYS_MAX} days. ${FIGURES}`,
    query: portfolioStatsQuerySchema,
    response: resultOf(consentFiguresSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    service: 'consent',
    permission: 'records:read',
    tag: 'Consent records',
    operationId: 'exportRecords',
    method: 'get',
    path: '/portal/instance/company/records/export',
    summary: "Export a domain's or merchant's consent records (NDJSON or CSV), streamed",
    description:
      '`domain_id` or `merchant_id` is required; records made from `from` to `to` (UTC days, included), oldest first. NDJSON: one record (as the API shows it, signature included) per line. CSV: a header row, then a row per record; cells a spreadsheet would run as a formula are quoted. Sent as it is read (chunked), however many records.',
    query: recordsExportQuerySchema,
    download: Object.values(RECORDS_EXPORT_MEDIA),
    streamed: true,
    upstreamTimeoutMs: 600_000,
    response: z.string(),
    errors: ['VALIDATION.INVALID', 'RESOURCE.NOT_FOUND'],
  }),
] satisfies RouteSpec[];

/** The widget reports each time it shows the notice (counted, nothing stored about the visitor). */
export const consentFigurePublicRoutes = [
  defineRoute({
    service: 'consent',
    access: 'public',
    tag: 'Widget (public)',
    operationId: 'createNoticeView',
    method: 'post',
    path: '/widget/v1/properties/{propertyId}/notice-views',
    summary: 'The notice was shown (counted per day)',
    description:
      "The `Origin` host must be the property's hostname or one of its subdomains (403 WIDGET.ORIGIN_NOT_ALLOWED). No body; only a count is kept.",
    params: propertyIdParamsSchema,
    bodyRequired: false,
    response: emptyResultSchema,
    status: 202,
    errors: [...BODY_ERRORS, 'RESOURCE.NOT_FOUND', 'WIDGET.ORIGIN_NOT_ALLOWED'],
  }),
] satisfies RouteSpec[];

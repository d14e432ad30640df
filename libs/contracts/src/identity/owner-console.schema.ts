import { z } from 'zod';
import { paginationQuerySchema } from '../common';
import { receiptStatusSchema, receiptTypeSchema } from '../consent/consent-record.schema';
import { RECORDS_EXPORT_FORMATS } from '../consent/consent-figures.routes';
import { findingCategorySchema } from '../domains/scan.schema';

/** A domain of the signed-in owner's customer (another domain, even of the same partner: 404). */
export const ownerDomainParamsSchema = z.object({
  domainId: z.string().min(1).max(100).meta({ description: "One of the customer's domains (its id)" }),
});

/** The owner's consent records of one domain: the records list's filters without the customer fields. */
export const ownerRecordsQuerySchema = paginationQuerySchema.extend({
  receipt_type: receiptTypeSchema.optional(),
  receipt_status: receiptStatusSchema.optional(),
});
export type OwnerRecordsQuery = z.output<typeof ownerRecordsQuerySchema>;

/**
 * The export's filters: the list's, without pagination, with an optional range of UTC days
 * (default: every record) and the format (CSV by default, as the console offers it).
 */
export const ownerRecordsExportQuerySchema = z.object({
  receipt_type: receiptTypeSchema.optional(),
  receipt_status: receiptStatusSchema.optional(),
  from: z.iso
    .date('must be a date YYYY-MM-DD')
    .optional()
    .meta({ description: 'The first day (UTC); default: the first record' }),
  to: z.iso
    .date('must be a date YYYY-MM-DD')
    .optional()
    .meta({ description: 'The last day (UTC), included; default: today' }),
  format: z.enum(RECORDS_EXPORT_FORMATS).default('csv').meta({ description: 'csv (default) or ndjson' }),
});
export type OwnerRecordsExportQuery = z.output<typeof ownerRecordsExportQuerySchema>;

/** The owner's own users: the access users list's pagination (the customer is the session's). */
export const ownerUsersQuerySchema = paginationQuerySchema;

const declaredCookieSchema = z.object({
  name: z.string(),
  domain: z.string(),
  vendor: z.string().nullable(),
  first_party: z.boolean(),
  duration: z.string().meta({ description: '"Session", or how long it lasts, e.g. "1 year", "30 days"' }),
});

/** The cookie declaration for a privacy policy: the latest completed scan's cookies by category, in the widget's category texts. */
export const cookieDeclarationSchema = z
  .object({
    domain_id: z.string(),
    hostname: z.string(),
    scanned_at: z
      .string()
      .nullable()
      .meta({ description: 'When the scan it is made from finished; null: never scanned' }),
    categories: z.array(
      z.object({
        category: findingCategorySchema,
        label: z.string(),
        description: z.string(),
        cookies: z.array(declaredCookieSchema),
      }),
    ),
  })
  .meta({ id: 'CookieDeclaration' });
export type CookieDeclaration = z.infer<typeof cookieDeclarationSchema>;

import { z } from 'zod';
import { paginationQuerySchema } from '../common';
import { customerQueryFields, requireOwner } from './consent-record.schema';

/** What a data subject may ask for (the widget's form, the API, the events). */
export const DSAR_TYPES = ['access', 'deletion', 'correction', 'opt_out', 'portability'] as const;
export const dsarTypeSchema = z.enum(DSAR_TYPES);
export type DsarType = z.infer<typeof dsarTypeSchema>;

/**
 * A request's life: RECEIVED (waiting for the requester's e-mailed link) -> VERIFIED (the link was
 * opened; the deadline runs) -> IN_PROGRESS -> COMPLETED or REJECTED (closed, the requester is told);
 * RECEIVED -> EXPIRED when the link was not opened in time.
 */
export const DSAR_STATUSES = ['RECEIVED', 'VERIFIED', 'IN_PROGRESS', 'COMPLETED', 'REJECTED', 'EXPIRED'] as const;
export const dsarStatusSchema = z.enum(DSAR_STATUSES);
export type DsarStatus = z.infer<typeof dsarStatusSchema>;
/** The statuses the owner works in (the deadline runs); the rest are before or after it. */
export const DSAR_OPEN_STATUSES: readonly DsarStatus[] = ['VERIFIED', 'IN_PROGRESS'];
export const DSAR_CLOSED_STATUSES: readonly DsarStatus[] = ['COMPLETED', 'REJECTED'];

/**
 * The deadline by the requester's law, counted from verification: GDPR-like laws one month (30
 * days) plus one extension of two months; the US state laws 45 days plus one of 45. A place with
 * no law we name gets the GDPR's (the stricter).
 */
export const DSAR_DEADLINES = {
  GDPR: { days: 30, extensionDays: 60 },
  US_STATE: { days: 45, extensionDays: 45 },
} as const;
export type DsarDeadlineRule = keyof typeof DSAR_DEADLINES;
/** How long the requester's confirmation link works; after it the request is EXPIRED. */
export const DSAR_CONFIRM_TTL_HOURS = 24;
/** The owner's reminders, days before the due date (each sent once). */
export const DSAR_REMINDER_DAYS = [7, 1] as const;

/** A date or date-time a filter compares due dates with (years 1000..9999: what PostgreSQL and JS both read alike). */
const isoDate = () =>
  z
    .string()
    .max(40)
    .refine(
      (s) => /^[1-9]\d{3}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be an ISO 8601 date or date-time',
    );

export const dataRequestEventSchema = z.object({
  at: z.string(),
  kind: z.enum(['received', 'verified', 'status', 'extended', 'note', 'reminded', 'overdue', 'expired']),
  status: dsarStatusSchema.nullable(),
  note: z.string().nullable(),
  actor: z
    .string()
    .nullable()
    .meta({ description: 'Who did it: owner:<id>, or null for the requester or the platform' }),
});

/** A data subject request as partners and owners read it. */
export const dataRequestSchema = z
  .object({
    request_id: z.string().meta({ description: 'DSR_ and 32 hex characters' }),
    domain_id: z.string(),
    property_id: z.string(),
    hostname: z.string(),
    type: dsarTypeSchema,
    status: dsarStatusSchema,
    email: z.string(),
    name: z.string().nullable(),
    message: z.string().nullable(),
    jurisdiction: z
      .string()
      .nullable()
      .meta({ description: "The law of the requester's place (GeoIP), e.g. GDPR, CCPA" }),
    deadline_rule: z.enum(['GDPR', 'US_STATE']),
    created_at: z.string(),
    verified_at: z.string().nullable(),
    due_at: z
      .string()
      .nullable()
      .meta({ description: 'From verification: 30 days (GDPR-like), 45 (US state laws), plus any extension' }),
    extended_at: z.string().nullable(),
    extension_reason: z.string().nullable(),
    overdue: z.boolean().meta({ description: 'Open past its due date' }),
    closed_at: z.string().nullable(),
    history: z.array(dataRequestEventSchema),
  })
  .meta({ id: 'DataRequest' });
export type DataRequest = z.infer<typeof dataRequestSchema>;

const dueFilters = {
  status: dsarStatusSchema.optional(),
  due_before: isoDate().optional().meta({ description: 'Only requests due before this date (ISO 8601)' }),
  due_after: isoDate().optional().meta({ description: 'Only requests due at or after this date (ISO 8601)' }),
};

export const listDataRequestsQuerySchema = paginationQuerySchema
  .extend({ ...customerQueryFields, ...dueFilters })
  .superRefine(requireOwner);
export type ListDataRequestsQuery = z.output<typeof listDataRequestsQuerySchema>;
export const getDataRequestQuerySchema = z.object(customerQueryFields).superRefine(requireOwner);

export const dataRequestIdParamsSchema = z.object({
  requestId: z.string().min(1).max(64).meta({ description: 'The request id (DSR_...)' }),
});

/** The owner's list of one domain's requests: the filters without the customer fields. */
export const ownerDataRequestsQuerySchema = paginationQuerySchema.extend(dueFilters);
export type OwnerDataRequestsQuery = z.output<typeof ownerDataRequestsQuerySchema>;

/** What the owner does to a request: move it on, extend its deadline once, add a note (any together). */
export const updateDataRequestBodySchema = z
  .object({
    status: z.enum(['IN_PROGRESS', 'COMPLETED', 'REJECTED']).optional(),
    extend: z
      .object({ reason: z.string().trim().min(1).max(500) })
      .strict()
      .optional(),
    note: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .optional()
      .meta({ description: 'Kept in the history; on COMPLETED or REJECTED it is the reply e-mailed to the requester' }),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.status === undefined && b.extend === undefined && b.note === undefined)
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'name a status, an extension or a note' });
    if (b.status === 'REJECTED' && b.note === undefined)
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'a rejection needs a note: the requester is told why' });
  });
export type UpdateDataRequestBody = z.output<typeof updateDataRequestBodySchema>;
/** The internal PATCH names the domain the owner acts on. */
export const updateDataRequestQuerySchema = z.object({ domain_id: z.string().min(1).max(100) });

/** The requester's confirmation: the token from the e-mailed link. */
export const confirmDataRequestBodySchema = z.object({ token: z.string().min(20).max(100) });
export const confirmedDataRequestSchema = z.object({
  request_id: z.string(),
  type: dsarTypeSchema,
  hostname: z.string(),
  status: dsarStatusSchema,
  due_at: z.string().nullable(),
});
export type ConfirmedDataRequest = z.infer<typeof confirmedDataRequestSchema>;

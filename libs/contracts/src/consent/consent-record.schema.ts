import { z } from 'zod';
import { paginationQuerySchema } from '../common';
// The spec's data_collection item: the widget's settings carry the same shape.
import { dataCollectionItemSchema } from '../widget/widget.schema';
import { merchantIdText } from '../merchants/merchant-input';
import { REGIMES } from '../widget/regime';

export const RECEIPT_TYPES = ['COOKIE_CONSENT', 'AGE_CONFIRMATION', 'WIRETAPPING', 'VPPA'] as const;
export const RECEIPT_STATUSES = ['ALLOWED', 'DENIED', 'PARTIAL'] as const;
export const receiptTypeSchema = z.enum(RECEIPT_TYPES);
export const receiptStatusSchema = z.enum(RECEIPT_STATUSES);
export type ReceiptType = z.infer<typeof receiptTypeSchema>;
export type ReceiptStatus = z.infer<typeof receiptStatusSchema>;

/** A record id: RCPT_ and 32 characters. */
export const RECEIPT_ID_PATTERN = /^RCPT_[A-Za-z0-9]{32}$/;

export type DataCollectionItem = z.infer<typeof dataCollectionItemSchema>;

const nullableText = z.string().nullable();

export const dataControllerSchema = z.object({
  name: z.string(),
  logo: nullableText,
  phone_number: nullableText,
  url: nullableText,
  email: nullableText,
  address: z.object({
    id: z.string(),
    country: nullableText,
    state: nullableText,
    address: nullableText,
    address_2: nullableText,
    postal_code: nullableText,
    phone_number: nullableText,
  }),
});
export type DataController = z.infer<typeof dataControllerSchema>;

export const consentRecordMetaSchema = z.object({
  widget_version: z.string(),
  consent_revision: z.string(),
  gpc: z.boolean(),
  language: z.string().optional().meta({
    description: "The language the visitor read (purposes' names and descriptions are in it); absent on older records",
  }),
  // Beside the jurisdiction (the spec's record has no field for it; its meta's contents are ours).
  regime: z.enum(REGIMES).optional().meta({
    description:
      'The notice the visitor answered: OPT_IN, OPT_OUT or NOTICE_ONLY (absent on records made before regimes)',
  }),
});

export const consentRecordSchema = z
  .object({
    receipt_id: z.string().meta({ example: 'RCPT_4f3c2a1b9d8e7f6a5b4c3d2e1f0a9b8c' }),
    receipt_type: receiptTypeSchema,
    receipt_status: receiptStatusSchema,
    country: nullableText.meta({ description: 'ISO 3166-1 alpha-2 of the visitor address (GeoIP); null when unknown' }),
    region: nullableText.meta({ description: 'Region name (GeoIP); null when unknown' }),
    jurisdiction: nullableText.meta({
      description:
        'GDPR, UK_GDPR, CCPA, LGPD, PIPEDA, ... derived from country/region; null when none applies or unknown',
    }),
    meta: consentRecordMetaSchema,
    data_collection: z.array(dataCollectionItemSchema),
    data_controller: dataControllerSchema,
    subject: z.string().meta({ description: 'The anonymous visitor id the widget keeps on that site' }),
    subject_auth: z
      .string()
      .meta({ description: 'How the subject was identified: ANONYMOUS (a visitor id, no login)' }),
    subject_data: z.record(z.string(), z.unknown()),
    property_id: z.string(),
    created_at: z.string(),
    signature: z.string().meta({
      description:
        'Compact JWS, detached payload (<protected>..<signature>), EdDSA, over the RFC 8785 JSON of this record without signature',
    }),
  })
  .meta({ id: 'ConsentRecord' });
export type ConsentRecord = z.infer<typeof consentRecordSchema>;
/** The record as it is signed: everything but its signature. */
export type UnsignedConsentRecord = Omit<ConsentRecord, 'signature'>;

const filterText = () => z.string().trim().min(1).max(255);
export const CUSTOMER_REQUIRED = 'merchant_id or domain_id is required';

/**
 * Records are read through a domain or a merchant of the partner: one of the two is required.
 * The instance endpoints name their customer with the same two fields.
 */
export const customerQueryFields = {
  merchant_id: merchantIdText()
    .optional()
    .meta({ description: "The partner's merchant_id (or the merchant's id) whose domains' records to read" }),
  domain_id: filterText().optional().meta({ description: 'The domain whose records to read' }),
};

export const requireOwner = (q: { merchant_id?: string; domain_id?: string }, ctx: z.RefinementCtx) => {
  if (q.merchant_id === undefined && q.domain_id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['merchant_id'], message: CUSTOMER_REQUIRED });
    ctx.addIssue({ code: 'custom', path: ['domain_id'], message: CUSTOMER_REQUIRED });
  }
};

export const listRecordsQuerySchema = paginationQuerySchema
  .extend({
    ...customerQueryFields,
    property_id: z.guid().optional().meta({ description: "The property's id (a UUID)" }),
    receipt_type: receiptTypeSchema.optional(),
    receipt_status: receiptStatusSchema.optional(),
  })
  .superRefine(requireOwner);
export type ListRecordsQuery = z.output<typeof listRecordsQuerySchema>;

export const getRecordQuerySchema = z.object(customerQueryFields).superRefine(requireOwner);
export type GetRecordQuery = z.output<typeof getRecordQuerySchema>;

export const recordIdParamsSchema = z.object({
  id: z.string().min(1).max(64).meta({ description: 'The record id (RCPT_...)' }),
});

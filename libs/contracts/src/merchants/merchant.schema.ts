import { z } from 'zod';
import { dateTime, paginationQuerySchema, queryBool } from '../common';
import { domainSourceSchema, domainStatusSchema } from '../domains/domain.schema';
import {
  isReservedMetaKey,
  MERCHANT_ID_MAX,
  merchantIdText,
  NEW_MERCHANT_ID_MAX,
  reservedMetaKeyMessage,
} from './merchant-input';

export const META_KEYS_MAX = 50;
export const META_KEY_MAX = 64;
export const META_VALUE_MAX = 500;

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

const merchantIdDescription = "The merchant's id in the partner's system, unique per partner";
/** Billing codes are kept as given: billing-svc checks them when a domain uses them. */
const codeSchema = text(64).min(1, 'must not be empty');

/**
 * A flat map of text: keys without dots, so every key can be filtered on as `meta.<key>`. The
 * reserved keys (`__proto__`...) are refused before zod reads the map (it would drop `__proto__`).
 */
export const merchantMetaSchema = z
  .preprocess(
    (meta, ctx) => {
      if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return meta;
      for (const key of Object.keys(meta))
        if (isReservedMetaKey(key))
          ctx.addIssue({ code: 'custom', path: [key], message: reservedMetaKeyMessage, input: meta });
      return meta;
    },
    z
      .record(
        z
          .string()
          .min(1, 'keys must not be empty')
          .max(META_KEY_MAX, `keys must be at most ${META_KEY_MAX} characters`)
          .regex(/^[^.]+$/, 'keys must not contain a dot'),
        z.string().max(META_VALUE_MAX, `must be at most ${META_VALUE_MAX} characters`),
      )
      .refine((meta) => Object.keys(meta).length <= META_KEYS_MAX, `must have at most ${META_KEYS_MAX} keys`),
  )
  .meta({
    description: `Flat map of text (at most ${META_KEYS_MAX} keys of 1 to ${META_KEY_MAX} characters without a dot, values up to ${META_VALUE_MAX})`,
    example: { plan: 'gold' },
  });

const optionalFields = {
  company_name: text(100).nullable().optional(),
  description: text(500).nullable().optional(),
  meta: merchantMetaSchema.optional(),
  default_product: codeSchema
    .nullable()
    .optional()
    .meta({ description: 'Product code a domain created with this merchant gets when it names none' }),
  default_price_list: codeSchema.nullable().optional().meta({ description: 'Price list code for that default' }),
};

/** Unknown fields (e.g. the spec's `created_at`, `partner_id`) are ignored, as on domains. */
export const createMerchantBodySchema = z.object({
  merchant_id: merchantIdText(NEW_MERCHANT_ID_MAX).meta({
    description: `${merchantIdDescription} (1 to ${NEW_MERCHANT_ID_MAX} characters)`,
    example: 'shop-42',
  }),
  ...optionalFields,
});
export type CreateMerchantBody = z.output<typeof createMerchantBodySchema>;

/**
 * Only the fields sent change; null clears a text field; meta is replaced whole. A new merchant_id
 * is 1 to 32 characters (merchants-svc checks it against the current one); the one the merchant
 * has is accepted as it is, up to 204 (a domain create may have made it).
 */
export const updateMerchantBodySchema = z.object({
  merchant_id: merchantIdText(MERCHANT_ID_MAX)
    .optional()
    .meta({
      description: `${merchantIdDescription}: a new one is 1 to ${NEW_MERCHANT_ID_MAX} characters; the current one (up to ${MERCHANT_ID_MAX}, as a domain create may have made it) is accepted unchanged`,
      example: 'shop-42',
    }),
  ...optionalFields,
});
export type UpdateMerchantBody = z.output<typeof updateMerchantBodySchema>;

export const merchantIdParamsSchema = z.object({
  merchantId: z.string().min(1).meta({ description: "The merchant's id (uuid)" }),
});
export const externalMerchantIdParamsSchema = z.object({
  merchantId: z.string().min(1).meta({ description: "The partner's merchant_id (URL-encoded)" }),
});

const q = () => z.string().trim().min(1).max(255);

export const META_FILTER_PREFIX = 'meta.';
const META_FILTER_KEY = new RegExp(`^meta\\.[^.]{1,${META_KEY_MAX}}$`);

/**
 * GET /portal/merchants query. Besides the named filters, any `meta.<key>=<value>` parameter
 * filters on meta (all must match); other unknown parameters are ignored, as on domains.
 */
export const listMerchantsQuerySchema = paginationQuerySchema
  .extend({
    search: q().optional().meta({ description: 'Case-insensitive part of merchant_id, company_name or description' }),
    is_registered: queryBool()
      .optional()
      .meta({ description: 'true: only merchants linked to a domain; false: only those not linked' }),
    merchant_id: merchantIdText()
      .optional()
      .meta({ description: `Exactly this merchant_id (1 to ${MERCHANT_ID_MAX} characters)` }),
    created_at_start: dateTime().optional(),
    created_at_end: dateTime().optional(),
  })
  .catchall(z.unknown())
  .superRefine((query, ctx) => {
    for (const [key, value] of Object.entries(query)) {
      if (!key.startsWith(META_FILTER_PREFIX)) continue;
      if (!META_FILTER_KEY.test(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `must be meta.<key> with a key of 1 to ${META_KEY_MAX} characters and no dot`,
        });
      } else if (isReservedMetaKey(key.slice(META_FILTER_PREFIX.length))) {
        ctx.addIssue({ code: 'custom', path: [key], message: `the key ${reservedMetaKeyMessage}` });
      } else if (typeof value !== 'string') {
        ctx.addIssue({ code: 'custom', path: [key], message: 'must be given once' });
      } else if (value.length > META_VALUE_MAX) {
        ctx.addIssue({ code: 'custom', path: [key], message: `must be at most ${META_VALUE_MAX} characters` });
      }
    }
  });
export type ListMerchantsQuery = z.output<typeof listMerchantsQuerySchema>;

/** The `meta.<key>=<value>` filters of a validated list query, as the map meta must contain. */
export function merchantMetaFilters(query: ListMerchantsQuery): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith(META_FILTER_PREFIX) && typeof value === 'string')
      filters[key.slice(META_FILTER_PREFIX.length)] = value;
  }
  return filters;
}

export const merchantDomainSchema = z
  .object({
    id: z.string(),
    hostname: z.string(),
    status: domainStatusSchema,
    is_active: z.boolean(),
    created_at: z.string(),
    email: z.string().meta({ description: "E-mail of the domain owner's account" }),
    source: domainSourceSchema,
  })
  .meta({ id: 'MerchantDomain' });

export const merchantSchema = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    company_name: z.string().nullable(),
    description: z.string().nullable(),
    meta: z.record(z.string(), z.string()),
    default_product: z.string().nullable(),
    default_price_list: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    partner_id: z.string(),
    registered_at: z
      .string()
      .nullable()
      .meta({ description: 'When a domain first named this merchant; null until then' }),
    domain: merchantDomainSchema
      .nullable()
      .meta({ description: 'The domain that most recently named this merchant; null when none does' }),
  })
  .meta({ id: 'Merchant' });
export type Merchant = z.infer<typeof merchantSchema>;

/** What domains-svc needs of a merchant when a domain is created with its merchant_id. */
export const merchantDefaultsSchema = z.object({
  id: z.string(),
  merchant_id: z.string(),
  default_product: z.string().nullable(),
  default_price_list: z.string().nullable(),
});
export type MerchantDefaults = z.infer<typeof merchantDefaultsSchema>;

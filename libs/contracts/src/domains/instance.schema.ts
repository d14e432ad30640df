import { z } from 'zod';
import { singleLine } from '../common';
import { CUSTOMER_REQUIRED, customerQueryFields } from '../consent/consent-record.schema';
import { emailSchema } from '../identity/identity.schema';
import { companySchema, createDomainFieldsSchema, updateDomainBodySchema } from './domain.schema';
import { propertyEntityDataSchema } from './domain-events';
import {
  LANGUAGES,
  OVERRIDABLE_TEXT_KEYS,
  TEXT_OVERRIDE_MAX_LENGTH,
  type Language,
  type TextKey,
} from '../widget/texts';
import { PROPERTY_REGIMES } from '../widget/regime';

/**
 * The customer an instance endpoint acts on: exactly one of `merchant_id` (the partner's
 * merchant_id or the merchant's id, as the records endpoints take it) or `domain_id`.
 */
export const exactlyOneCustomer = (q: { merchant_id?: string; domain_id?: string }, ctx: z.RefinementCtx) => {
  const given = [q.merchant_id, q.domain_id].filter((v) => v !== undefined).length;
  if (given === 1) return;
  const message = given === 0 ? CUSTOMER_REQUIRED : 'give merchant_id or domain_id, not both';
  ctx.addIssue({ code: 'custom', path: ['merchant_id'], message });
  ctx.addIssue({ code: 'custom', path: ['domain_id'], message });
};
export const instanceQuerySchema = z.object(customerQueryFields).superRefine(exactlyOneCustomer);
export type InstanceQuery = z.output<typeof instanceQuerySchema>;

/**
 * The spec's Company (left as the spec has it) and the customer's data protection officer, as
 * GET /portal/instance/company answers it; `dpo` is null when neither name nor e-mail is set.
 */
export const instanceCompanySchema = companySchema
  .extend({
    dpo: z
      .object({ name: z.string().nullable(), email: z.string().nullable() })
      .nullable()
      .meta({ description: "The company's data protection officer, shown by the widget's DPO view (display_dpo)" }),
  })
  .meta({ id: 'InstanceCompany' });
export type InstanceCompany = z.infer<typeof instanceCompanySchema>;

// The company fields keep the domain create/update rules: one rule per field.
const update = updateDomainBodySchema.shape;
const create = createDomainFieldsSchema.shape;

/** PUT /portal/instance/company: any writable field of the spec's Company (the owner's id and e-mail are the account's). */
export const updateInstanceCompanyBodySchema = z
  .object({
    name: update.company_name,
    email: create.account_email.optional().meta({ description: "The company's contact e-mail" }),
    address: z
      .object({
        country: update.country,
        city: update.city,
        address: update.address,
        postal_code: update.postal_code,
        phone_number: create.phone_number,
      })
      .partial()
      .optional(),
    owner: z
      .object({ first_name: create.account_first_name, last_name: create.account_last_name })
      .partial()
      .optional(),
    dpo: z
      .object({
        name: singleLine(z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters')).nullable(),
        email: emailSchema.nullable(),
      })
      .partial()
      .nullable()
      .optional()
      .meta({
        description: 'The data protection officer: a field absent stays, null clears it; `dpo: null` clears both',
      }),
  })
  .meta({ id: 'UpdateInstanceCompany' });
export type UpdateInstanceCompanyBody = z.output<typeof updateInstanceCompanyBodySchema>;

/** Where the widget's button sits (the widget reads the side: left or right). */
export const WIDGET_POSITIONS = ['BOTTOM_LEFT', 'BOTTOM_RIGHT'] as const;
export const widgetPositionSchema = z.enum(WIDGET_POSITIONS);

/** A CSS font-family list the widget accepts (it checks the same shape before it reaches CSS). */
const widgetFontSchema = z
  .string()
  .trim()
  .regex(/^[\w\s,'"-]{1,80}$/, 'must be a font family list: letters, digits, spaces, commas, quotes, hyphens (1..80)');

/** Border radius bounds: up to 48px, or 3rem/3em (the widget draws larger values as pills anyway). */
export const BORDER_RADIUS_MAX = { px: 48, rem: 3, em: 3 } as const;
const borderRadiusSchema = z
  .union([z.number(), z.string().trim()])
  .transform((v, ctx) => {
    const m = /^(\d{1,2}(?:\.\d+)?)(px|rem|em)?$/.exec(String(v));
    const unit = (m?.[2] ?? 'px') as keyof typeof BORDER_RADIUS_MAX;
    if (!m || Number(m[1]) > BORDER_RADIUS_MAX[unit]) {
      ctx.issues.push({
        code: 'custom',
        input: v,
        message: 'must be 0..48px, 0..3rem or 0..3em (a number is px)',
      });
      return z.NEVER;
    }
    return `${Number(m[1])}${unit}`;
  })
  .meta({ description: 'A number (px) or `<n>px`, `<n>rem`, `<n>em`; stored as text like `8px`' });

/** How long a visitor's choice stands before the widget asks again: 1 day to 2 years, 12 months by default. */
export const CONSENT_MAX_AGE_DAYS = { min: 1, max: 730, default: 365 } as const;
const consentMaxAgeDaysSchema = z
  .number()
  .int()
  .min(CONSENT_MAX_AGE_DAYS.min)
  .max(CONSENT_MAX_AGE_DAYS.max)
  .meta({ description: "Days a visitor's choice stands before the widget asks again (1..730, default 365)" });

/** The widget's language when the visitor's is none it speaks (and for a visitor who states none). */
const defaultLanguageSchema = z
  .enum(LANGUAGES)
  .meta({ description: "The widget's language when the visitor's browser names none it speaks (default en)" });

/** One override: plain text (no markup), one paragraph at most; blank means the default text. */
const overrideTextSchema = z
  .string()
  .trim()
  .max(TEXT_OVERRIDE_MAX_LENGTH, `must be at most ${TEXT_OVERRIDE_MAX_LENGTH} characters`)
  .refine((t) => !/[<>]/.test(t), 'may not contain < or > (plain text only)')
  .refine((t) => !/[\u0000-\u001f\u007f]/.test(t), 'must be one line of plain text');

/** The widget's texts a property changes, per language and key (libs/contracts/src/widget/texts). */
export const textOverridesSchema = z
  .partialRecord(
    z.enum(LANGUAGES),
    z.partialRecord(z.enum(OVERRIDABLE_TEXT_KEYS as [TextKey, ...TextKey[]]), overrideTextSchema),
  )
  .transform(dropBlankOverrides)
  .meta({
    description:
      "The widget's texts overridden per language: { [language]: { [key]: text } } with the catalogue's keys (not the categories' texts, which consent records state)",
  });
export type TextOverrides = Partial<Record<Language, Partial<Record<TextKey, string>>>>;

function dropBlankOverrides(all: TextOverrides): TextOverrides {
  const kept: TextOverrides = {};
  for (const [lang, texts] of Object.entries(all) as Array<[Language, Partial<Record<TextKey, string>>]>) {
    const set = Object.entries(texts || {}).filter(([, t]) => t);
    if (set.length > 0) kept[lang] = Object.fromEntries(set);
  }
  return kept;
}

/** The notice the property's visitors get: AUTO (from each visitor's place) or one regime for everyone. */
const propertyRegimeSchema = z.enum(PROPERTY_REGIMES).meta({
  description:
    "AUTO (default): each visitor's regime from their address (GeoIP); OPT_IN, OPT_OUT or NOTICE_ONLY: that one for every visitor",
});
const adsDataRedactionSchema = z.boolean().meta({
  description:
    "Google Consent Mode's ads_data_redaction: ad clicks carry no identifiers while ad_storage is denied (default true)",
});
const urlPassthroughSchema = z.boolean().meta({
  description:
    "Google Consent Mode's url_passthrough: click ids pass in page URLs while storage is denied (default false)",
});

/**
 * The property as property.updated's data carries it, how long a choice stands, the widget's default
 * language and its texts overridden per language, the regime and the Consent Mode switches (not in the
 * event: its data is the spec's): GET /portal/instance/property answers it.
 */
export const instancePropertySchema = propertyEntityDataSchema
  .extend({
    consent_max_age_days: consentMaxAgeDaysSchema,
    default_language: defaultLanguageSchema,
    text_overrides: textOverridesSchema,
    regime: propertyRegimeSchema,
    ads_data_redaction: adsDataRedactionSchema,
    url_passthrough: urlPassthroughSchema,
  })
  .meta({ id: 'InstanceProperty' });
export type InstanceProperty = z.infer<typeof instancePropertySchema>;

/** PUT /portal/instance/property: any writable field of the property (colours as the domain update takes them). */
export const updateInstancePropertyBodySchema = z
  .object({
    name: update.company_name.meta({ description: "The property's name (its hostname at create)" }),
    description: z.string().trim().max(1000, 'must be at most 1000 characters').optional(),
    widget_font: widgetFontSchema.optional(),
    widget_position: widgetPositionSchema.optional(),
    border_radius: borderRadiusSchema.optional(),
    primary_color: update.primary_color,
    text_color: update.primary_color,
    has_scripts: update.has_scripts,
    has_dsar: update.has_dsar,
    has_docs: update.has_docs,
    has_accessibility: update.has_accessibility,
    has_accessibility_icon: z.boolean().optional(),
    display_dpo: update.display_dpo,
    display_company: update.display_company,
    has_welcome_message: z.boolean().optional(),
    has_continuous_scanning: z
      .boolean()
      .optional()
      .meta({ description: 'Rescan the site every SCAN_RESCAN_INTERVAL_MS (7 days)' }),
    consent_max_age_days: consentMaxAgeDaysSchema.optional(),
    default_language: defaultLanguageSchema.optional(),
    text_overrides: textOverridesSchema.optional().meta({
      description:
        'Replaces all of the overrides: { [language]: { [text key]: text } }; a blank text (or a missing key) is the default text',
    }),
    regime: propertyRegimeSchema.optional(),
    ads_data_redaction: adsDataRedactionSchema.optional(),
    url_passthrough: urlPassthroughSchema.optional(),
  })
  .meta({ id: 'UpdateInstanceProperty' });
export type UpdateInstancePropertyBody = z.output<typeof updateInstancePropertyBodySchema>;

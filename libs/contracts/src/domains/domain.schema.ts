import { z } from 'zod';

import { parseHostname, subdomainHostname } from './hostname';
import { merchantIdText } from '../merchants/merchant-input';

export const DOMAIN_STATUSES = ['NEW', 'SCANNED', 'INVITED', 'ACTIVE', 'INACTIVE'] as const;
export const domainStatusSchema = z.enum(DOMAIN_STATUSES);
export type DomainStatus = z.infer<typeof domainStatusSchema>;

export const domainSourceSchema = z.enum(['API', 'IMPORT', 'PORTAL', 'WIDGET_SCAN', 'WIDGET_REGISTRATION']);
export type DomainSource = z.infer<typeof domainSourceSchema>;
export const noticeTypeSchema = z.enum(['CLASSIC', 'DISCRETE', 'FOOTER', 'TOP']);
export type NoticeType = z.infer<typeof noticeTypeSchema>;
export const domainActionSchema = z.enum(['SCAN', 'SCAN_INVITE', 'CREATE_SILENT']);
export type DomainAction = z.infer<typeof domainActionSchema>;
export const SUBSCRIPTION_STATUSES = [
  'NEW',
  'ACTIVE',
  'TRIAL',
  'GRACE',
  'PENDING_CANCEL',
  'PENDING_CHANGE',
  'PENDING_ACTIVE',
  'INACTIVE',
] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);

export const MAX_SUBDOMAINS = 100;

// ---- resources -------------------------------------------------------------------------

export const instanceSchema = z.object({ id: z.number().int(), name: z.string(), hostname: z.string() });

/** Fields of the create response (spec: Domain, create response). */
export const domainCreatedSchema = z
  .object({
    id: z.string(),
    hostname: z.string(),
    status: domainStatusSchema,
    instance_property_id: z.string(),
    instance_company_id: z.string(),
    updated_at: z.string(),
    created_at: z.string(),
    is_active: z.boolean(),
    email: z.string().meta({ description: 'E-mail of the domain owner account' }),
    company_trade_name: z.string(),
    company_id_number: z.string().meta({ description: 'Empty when not given' }),
    has_scripts: z.boolean(),
    has_dsar: z.boolean(),
    has_docs: z.boolean(),
    has_accessibility: z.boolean(),
    display_company: z.boolean(),
    display_dpo: z.boolean(),
    default_notice_type: noticeTypeSchema,
    source: domainSourceSchema,
    partner_id: z.string(),
    privacy_widget: z.string().meta({ description: 'Script tag to embed on the domain pages' }),
    privacy_center_link: z.string(),
    privacy_dnt_link: z.string(),
  })
  .meta({ id: 'DomainCreated' });
export type DomainCreated = z.infer<typeof domainCreatedSchema>;

/** A domain as listed: the create fields plus the remaining basic fields of the spec's table. */
export const domainSchema = domainCreatedSchema
  .extend({
    activated_at: z.string().nullable().meta({ description: 'null until the widget first loads' }),
    has_vendor_logo: z.boolean(),
    widget_version: z.number().int(),
    instance_id: z.number().int(),
    system_segment_id: z.number().int(),
    merchants: z.array(z.string()),
    instance: instanceSchema,
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof domainSchema>;

export const companySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    address: z.object({
      country: z.string(),
      city: z.string(),
      address: z.string(),
      postal_code: z.string(),
      phone_number: z.string(),
    }),
    owner: z.object({ id: z.string(), email: z.string(), first_name: z.string(), last_name: z.string() }),
  })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof companySchema>;

export const propertySchema = z
  .object({ id: z.string(), name: z.string(), company: companySchema })
  .meta({ id: 'Property' });

export const domainSubscriptionSchema = z
  .object({
    id: z.string(),
    status: subscriptionStatusSchema,
    start_date: z.string(),
    end_date: z.string().nullable(),
    created_at: z.string(),
    price: z.object({
      id: z.number().int(),
      frequency: z.enum(['MONTH', 'YEAR']),
      currency: z.object({ id: z.string(), name: z.string() }),
      price_amount: z.number(),
      price_list: z.object({ id: z.number().int(), type: z.string(), code: z.string() }),
      product: z.object({ id: z.number().int(), type: z.string(), name: z.string() }),
    }),
  })
  .meta({ id: 'DomainSubscription' });

/** The single read: every field, with property (company, address, owner) and subscription. */
export const domainDetailSchema = domainSchema
  .extend({ property: propertySchema, subscription: domainSubscriptionSchema.nullable() })
  .meta({ id: 'DomainDetail' });
export type DomainDetail = z.infer<typeof domainDetailSchema>;

// ---- bodies ----------------------------------------------------------------------------

const text = (max = 255) => z.string().trim().max(max, `must be at most ${max} characters`);
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const isoCountry = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .transform((v) => v.toUpperCase())
    .refine((v) => regionNames.of(v) !== undefined, 'must be an ISO 3166-1 alpha-2 code');
/** A hex colour like #1a2b3c (or 1a2b3c, #abc): stored lower case with its #. */
export const hexColor = () =>
  z
    .string()
    .trim()
    .regex(/^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color like #1a2b3c')
    .transform((v) => `#${v.replace('#', '').toLowerCase()}`);
const hostnameInput = () =>
  z
    .string()
    .max(2048)
    .transform((v, ctx) => {
      const parsed = parseHostname(v);
      if ('host' in parsed) return parsed.host;
      ctx.issues.push({ code: 'custom', input: v, message: parsed.problem });
      return z.NEVER;
    });

/** The create body's fields before subdomains are resolved (other bodies reuse their rules, e.g. the instance company). */
export const createDomainFieldsSchema = z.object({
  domain: hostnameInput().meta({
    description: 'Hostname or URL; stored as a lowercase hostname',
    example: 'shop.example.com',
  }),
  product: text(64).min(1).optional().meta({ description: 'Billing product code; default product when absent' }),
  price_list: text(64).min(1).optional().meta({ description: 'Billing price list code' }),
  company_name: text().min(1, 'is required'),
  company_trade_name: text().optional(),
  company_id_number: text().optional(),
  company_setup: z.boolean().default(false),
  account_email: z
    .email('must be an e-mail address')
    .max(254)
    .transform((v) => v.toLowerCase()),
  account_first_name: text(100).optional(),
  account_last_name: text(100).optional(),
  phone_number: text(50).optional(),
  vat_number: text(64).optional(),
  registration_number: text(64).optional(),
  country: isoCountry().optional(),
  state: isoCountry().optional(),
  city: text(100).optional(),
  address: text().optional(),
  address_2: text().optional(),
  postal_code: text(20).optional(),
  primary_color: hexColor().optional(),
  has_scripts: z.boolean().default(true),
  has_dsar: z.boolean().default(true),
  has_docs: z.boolean().default(true),
  has_accessibility: z.boolean().default(true),
  display_dpo: z.boolean().default(true),
  display_company: z.boolean().default(true),
  subdomains: z
    .array(z.string().min(1).max(253))
    .max(MAX_SUBDOMAINS, `at most ${MAX_SUBDOMAINS} subdomains`)
    .default([])
    .meta({ description: 'Full hostnames or labels under `domain`' }),
  default_notice_type: noticeTypeSchema.default('CLASSIC'),
  send_intro: z.boolean().default(false),
  action: domainActionSchema.default('CREATE_SILENT'),
  merchant_id: merchantIdText().optional(),
  referral_partner_id: text(64).min(1).optional(),
  criterias: z.array(text(64)).max(100).optional(),
  sector_id: text(64).optional(),
  industry_id: text(64).optional(),
});

export const createDomainBodySchema = createDomainFieldsSchema.transform((body, ctx) => {
  // Subdomains are resolved against the normalised domain: labels become full hostnames.
  const subdomains: string[] = [];
  body.subdomains.forEach((s, i) => {
    const host = subdomainHostname(s, body.domain);
    if (host) {
      if (!subdomains.includes(host)) subdomains.push(host);
    } else {
      ctx.issues.push({
        code: 'custom',
        input: s,
        path: ['subdomains', i],
        message: `must be a hostname under ${body.domain}`,
      });
    }
  });
  return { ...body, subdomains };
});
export type CreateDomainBody = z.output<typeof createDomainBodySchema>;

/**
 * The create body's fields a partner may make required (its settings' `required_fields`, the
 * admin CLI's `--require-fields`): one list for the settings, the CLI and the create.
 */
export const REQUIRED_FIELDS = ['account_first_name', 'account_last_name', 'phone_number'] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

export const updateDomainBodySchema = z.object({
  company_name: text().min(1).optional(),
  company_trade_name: text().optional(),
  company_id_number: text().optional(),
  country: isoCountry().optional(),
  state: isoCountry().optional(),
  city: text(100).optional(),
  address: text().optional(),
  address_2: text().optional(),
  postal_code: text(20).optional(),
  primary_color: hexColor().optional(),
  has_scripts: z.boolean().optional(),
  has_dsar: z.boolean().optional(),
  has_docs: z.boolean().optional(),
  has_accessibility: z.boolean().optional(),
  display_dpo: z.boolean().optional(),
  display_company: z.boolean().optional(),
  default_notice_type: noticeTypeSchema.optional(),
});
export type UpdateDomainBody = z.output<typeof updateDomainBodySchema>;

/** Invite: `send_invite` is accepted as an alias; when both are given `send_intro` wins. */
export const inviteDomainBodySchema = z
  .object({
    send_intro: z.boolean().optional().meta({ description: 'Send the customized intro e-mail too' }),
    send_invite: z.boolean().optional().meta({ description: 'Alias of send_intro' }),
  })
  .transform((b) => ({ send_intro: b.send_intro ?? b.send_invite ?? false }));
export type InviteDomainBody = z.output<typeof inviteDomainBodySchema>;

export const domainIdParamsSchema = z.object({ domainId: z.string().min(1).meta({ description: 'Domain id' }) });

export const domainAckSchema = z.object({ id: z.string() });

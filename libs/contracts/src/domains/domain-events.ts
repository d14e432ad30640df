import { z } from 'zod';
import type { EventPayload } from '../events';
import { domainActionSchema, domainSourceSchema, domainStatusSchema } from './domain.schema';

/** Payloads of the events domains-svc emits, exactly as the spec's Events table. */

export const DOMAIN_EVENTS = {
  created: 'domain.created',
  deactivated: 'domain.deactivated',
  deleted: 'domain.deleted',
  propertyUpdated: 'property.updated',
  propertyActivated: 'property.activated',
  reminderDay2: 'property.activation.reminder.day2',
  reminderDay7: 'property.activation.reminder.day7',
  reminderDay14: 'property.activation.reminder.day14',
  reminderDay30: 'property.activation.reminder.day30',
  /** Internal: the domain's whole state after any change, for other services' projections. */
  changed: 'domain.changed',
} as const;

export const eventInstanceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
  region: z.string(),
});

export const domainEntityDataSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  status: domainStatusSchema,
  has_scripts: z.boolean(),
  has_dsar: z.boolean(),
  has_docs: z.boolean(),
  has_accessibility: z.boolean(),
  display_dpo: z.boolean(),
  display_company: z.boolean(),
  instance_property_id: z.string(),
  instance_company_id: z.string(),
  instance: eventInstanceSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type DomainEntityData = z.infer<typeof domainEntityDataSchema>;

export const domainCreatedParamsSchema = z.object({
  domain_id: z.string(),
  domain: z.string(),
  action: domainActionSchema,
  source: domainSourceSchema,
  status: domainStatusSchema,
  country: z.string(),
  state: z.string().optional(),
  city: z.string().optional(),
  address: z.string().optional(),
  postal_code: z.string().optional(),
  vat_number: z.string().optional(),
  product_id: z.number().int(),
  price_list_id: z.number().int(),
  has_docs: z.boolean(),
  has_dsar: z.boolean(),
  has_scripts: z.boolean(),
  has_accessibility: z.boolean(),
  display_dpo: z.boolean(),
  display_company: z.boolean(),
  send_intro: z.boolean(),
  company_name: z.string(),
  account_email: z.string(),
  company_trade_name: z.string().optional(),
  account_first_name: z.string().optional(),
  account_last_name: z.string().optional(),
  merchant_id: z.string().optional(),
  subscription_id: z.string(),
});
export type DomainCreatedParams = z.infer<typeof domainCreatedParamsSchema>;

export const domainCreatedEventSchema = z.object({
  event: z.literal(DOMAIN_EVENTS.created),
  params: domainCreatedParamsSchema.strict(),
  entity: z.object({ kind: z.literal('domain'), data: domainEntityDataSchema.strict() }),
});

/** The spec spells the flag `has_dsara` in this event; both spellings are sent. */
export const domainDeactivatedEventSchema = z.object({
  event: z.literal(DOMAIN_EVENTS.deactivated),
  params: z.object({ domain: z.string(), domain_id: z.string() }).strict(),
  entity: z.object({
    kind: z.literal('domain'),
    data: domainEntityDataSchema.extend({ has_dsara: z.boolean() }).strict(),
  }),
});

export const domainDeletedParamsSchema = z.object({
  id: z.string(),
  domain: z.string(),
  property_id: z.string(),
  company_id: z.string(),
  subscriptions: z.array(z.string()),
});
export const domainDeletedEventSchema = z
  .object({ event: z.literal(DOMAIN_EVENTS.deleted), params: domainDeletedParamsSchema.strict() })
  .strict();

export const propertyEntityDataSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  widget_font: z.string(),
  widget_position: z.string(),
  border_radius: z.string(),
  primary_color: z.string(),
  text_color: z.string(),
  has_scripts: z.boolean(),
  has_dsar: z.boolean(),
  has_docs: z.boolean(),
  has_accessibility: z.boolean(),
  has_accessibility_icon: z.boolean(),
  display_dpo: z.boolean(),
  display_company: z.boolean(),
  has_welcome_message: z.boolean(),
  has_continuous_scanning: z.boolean(),
  company_id: z.string(),
  activated_at: z.string().nullable(),
  created_at: z.string(),
});
export type PropertyEntityData = z.infer<typeof propertyEntityDataSchema>;

/** params: property_id plus one entry per changed setting (its new value). */
export const propertyUpdatedEventSchema = z.object({
  event: z.literal(DOMAIN_EVENTS.propertyUpdated),
  params: z.object({ property_id: z.string() }).catchall(z.unknown()),
  entity: z.object({ kind: z.literal('property'), data: propertyEntityDataSchema.strict() }),
});

/** The widget script loaded on the property for the first time (emitted by the widget's activation, later). */
export const propertyActivatedEventSchema = z.object({
  event: z.literal(DOMAIN_EVENTS.propertyActivated),
  params: z.object({ property_id: z.string(), domain_name: z.string() }).strict(),
  entity: z.object({ kind: z.literal('property'), data: propertyEntityDataSchema.strict() }),
});

/** Params of the four activation reminders (spec: all strings, first_name optional). */
export const activationReminderParamsSchema = z
  .object({
    property_id: z.string(),
    email: z.string(),
    first_name: z.string().optional(),
    website_url: z.string(),
    domain_name: z.string(),
    widget_embed_code: z.string(),
    approval_url: z.string(),
  })
  .strict();

const reminderEventSchema = <N extends string>(name: N) =>
  z.object({ event: z.literal(name), params: activationReminderParamsSchema }).strict();
export const reminderDay2EventSchema = reminderEventSchema(DOMAIN_EVENTS.reminderDay2);
export const reminderDay7EventSchema = reminderEventSchema(DOMAIN_EVENTS.reminderDay7);
export const reminderDay14EventSchema = reminderEventSchema(DOMAIN_EVENTS.reminderDay14);
export const reminderDay30EventSchema = reminderEventSchema(DOMAIN_EVENTS.reminderDay30);

/** What changed in a domain.changed event; the state it carries is always whole. */
export const DOMAIN_CHANGES = [
  'created',
  'updated',
  'scanned',
  'invited',
  'activated',
  'deactivated',
  'subdomains',
  'merchants',
] as const;

const nullableText = z.string().nullable();
/** The domain's company as domain.changed carries it. */
export const domainCompanySchema = z.object({
  name: z.string(),
  trade_name: nullableText,
  email: z.string(),
  phone_number: nullableText,
  country: nullableText,
  state: nullableText,
  city: nullableText,
  address: nullableText,
  address_2: nullableText,
  postal_code: nullableText,
});
export type DomainCompany = z.infer<typeof domainCompanySchema>;

/** The domain as other services project it (billing, merchants, consent): state, owner and every hostname. */
export const domainStateSchema = z.object({
  id: z.string(),
  hostname: z.string(),
  subdomains: z.array(z.string()),
  status: domainStatusSchema,
  is_active: z.boolean(),
  source: domainSourceSchema,
  property_id: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  owner_email: z.string(),
  merchants: z.array(z.string()),
  /**
   * The merchants linked to the domain: each merchant_id it shows and the merchant's id, null
   * until merchants-svc has resolved the id the create named (absent in events of older releases).
   */
  merchant_links: z.array(z.object({ merchant_id: z.string(), id: z.string().nullable() }).strict()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
  activated_at: z.string().nullable(),
  /** The company's contact and address, as consent records name it (data_controller); absent in events of older releases. */
  company: domainCompanySchema.strict().optional(),
});
export type DomainState = z.infer<typeof domainStateSchema>;

export const domainChangedEventSchema = z.object({
  event: z.literal(DOMAIN_EVENTS.changed),
  params: z.object({ change: z.enum(DOMAIN_CHANGES), domain: domainStateSchema.strict() }).strict(),
});

export const domainChangedEvent = (change: (typeof DOMAIN_CHANGES)[number], domain: DomainState): EventPayload => ({
  event: DOMAIN_EVENTS.changed,
  params: { change, domain },
});

export const domainCreatedEvent = (params: DomainCreatedParams, data: DomainEntityData): EventPayload => ({
  event: DOMAIN_EVENTS.created,
  params: dropUndefined(params),
  entity: { kind: 'domain', data },
});

export const domainDeactivatedEvent = (data: DomainEntityData): EventPayload => ({
  event: DOMAIN_EVENTS.deactivated,
  params: { domain: data.hostname, domain_id: data.id },
  entity: { kind: 'domain', data: { ...data, has_dsara: data.has_dsar } },
});

export const domainDeletedEvent = (params: z.infer<typeof domainDeletedParamsSchema>): EventPayload => ({
  event: DOMAIN_EVENTS.deleted,
  params,
});

export const propertyUpdatedEvent = (changes: Record<string, unknown>, data: PropertyEntityData): EventPayload => ({
  event: DOMAIN_EVENTS.propertyUpdated,
  params: { property_id: data.id, ...changes },
  entity: { kind: 'property', data },
});

function dropUndefined<T extends object>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

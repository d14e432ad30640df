import type { MailQueueTable } from '@platform/mail';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { OutboxTable } from '@platform/messaging';

/** Timestamps come back as Date, go in as Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface CompaniesTable {
  id: string;
  partner_id: string;
  name: string;
  trade_name: string | null;
  id_number: string | null;
  email: string;
  vat_number: string | null;
  registration_number: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  address: string | null;
  address_2: string | null;
  postal_code: string | null;
  phone_number: string | null;
  owner_id: string;
  owner_email: string;
  owner_first_name: string | null;
  owner_last_name: string | null;
  criterias: string[];
  sector_id: string | null;
  industry_id: string | null;
  dpo_name: string | null;
  dpo_email: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PropertiesTable {
  id: string;
  partner_id: string;
  company_id: string;
  name: string;
  description: Generated<string>;
  status: Generated<string>;
  widget_font: Generated<string>;
  widget_position: Generated<string>;
  border_radius: Generated<string>;
  primary_color: Generated<string>;
  text_color: Generated<string>;
  has_scripts: boolean;
  has_dsar: boolean;
  has_docs: boolean;
  has_accessibility: boolean;
  has_accessibility_icon: Generated<boolean>;
  display_dpo: boolean;
  display_company: boolean;
  has_welcome_message: Generated<boolean>;
  has_continuous_scanning: Generated<boolean>;
  has_vendor_logo: Generated<boolean>;
  default_notice_type: string;
  /** Days a visitor's choice stands before the widget asks again (1..730). */
  consent_max_age_days: Generated<number>;
  /** The widget's language when the visitor's is none it speaks ('en' by default). */
  default_language: Generated<string>;
  /** The property's wording of widget texts: { [language]: { [key]: text } } (jsonb). */
  text_overrides: ColumnType<unknown, string | undefined, string>;
  /** AUTO (each visitor's regime from their place) or the one regime every visitor gets. */
  regime: Generated<string>;
  /** Google Consent Mode's ads_data_redaction and url_passthrough, set by the widget's loader. */
  ads_data_redaction: Generated<boolean>;
  url_passthrough: Generated<boolean>;
  /** What the latest completed scan found, as the widget shows it. */
  scan_cookies: ColumnType<unknown, string | undefined, string>;
  scan_data_collection: ColumnType<unknown, string | undefined, string>;
  activated_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DomainsTable {
  id: string;
  partner_id: string;
  company_id: string;
  property_id: string;
  hostname: string;
  status: string;
  is_active: boolean;
  source: string;
  action: string;
  instance_id: number;
  widget_version: number;
  merchants: string[];
  referral_partner_id: string | null;
  product_code: string;
  price_list_code: string;
  subscription_id: string;
  /** The subscription as billing-svc last reported it (null: domains created before the projection). */
  product_id: number | null;
  price_list_id: number | null;
  price_id: number | null;
  subscription_status: string | null;
  subscription_start: NullableTimestamp;
  subscription_end: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  activated_at: NullableTimestamp;
  /** The first invitation (the Dashboard's funnel); kept on later invites. */
  invited_at: NullableTimestamp;
}

interface CatalogueSnapshotTable {
  id: number;
  products: ColumnType<unknown, string, string>;
  fetched_at: Timestamp;
}

export interface SubdomainsTable {
  id: string;
  partner_id: string;
  domain_id: string;
  hostname: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Which of its partner's merchant_ids a domain names (the domain's merchants array, indexed for the list filter). */
interface DomainMerchantsTable {
  partner_id: string;
  /** The merchant's merchant_id as the domain shows it (kept current on a rename). */
  merchant_id: string;
  domain_id: string;
  /** The merchant's id in merchants-svc; null until merchants-svc has resolved the link. */
  merchant_ref: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One scan of a domain's site (see scans.repository.ts). */
export interface ScansTable {
  id: string;
  partner_id: string;
  domain_id: string;
  requested_by: string;
  status: Generated<string>;
  mode: string | null;
  attempts: Generated<number>;
  due_at: Generated<Date>;
  lease_until: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  pages: ColumnType<unknown, string | undefined, string>;
  findings: ColumnType<unknown, string | null | undefined, string | null>;
  errors: ColumnType<unknown, string | undefined, string>;
  created_at: Generated<Date>;
}

export interface DomainsDb {
  scans: ScansTable;
  companies: CompaniesTable;
  domain_merchants: DomainMerchantsTable;
  properties: PropertiesTable;
  domains: DomainsTable;
  subdomains: SubdomainsTable;
  mail_queue: MailQueueTable;
  catalogue_snapshot: CatalogueSnapshotTable;
  outbox: OutboxTable;
  activation_reminders: ActivationRemindersTable;
  email_templates: EmailTemplatesTable;
  partner_names: PartnerNamesTable;
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  registrations: RegistrationsTable;
  widget_scans: WidgetScansTable;
}

/** The spec's activation reminder days, in the order they fall due: a create writes one pending row per day. */
export const ACTIVATION_REMINDER_DAYS = [2, 7, 14, 30] as const;

/** A property's reminder of one day (ACTIVATION_REMINDER_DAYS): pending until emitted, or cancelled once the property is activated. */
export interface ActivationRemindersTable {
  property_id: string;
  day: number;
  property_created_at: Timestamp;
  emitted_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
}

export const SCHEMA = 'domains';

/** The schema's database handle (pool or transaction), as use cases pass it to repositories. */
/** A partner's own template of an owner e-mail kind (EMAIL_TEMPLATE_KINDS); without a row the default is used. */
export interface EmailTemplatesTable {
  partner_id: string;
  kind: string;
  subject: string;
  body: string;
  updated_at: Timestamp;
}

/** A partner's display name as the gateway's token last gave it (the gateway owns it). */
export interface PartnerNamesTable {
  partner_id: string;
  name: string;
  updated_at: Timestamp;
}

export type DomainsDatabase = Kysely<DomainsDb>;

/** A domain import (imports/): who asked, how, and the caller its domains are created for. */
export interface ImportsTable {
  id: string;
  partner_id: string;
  status: string;
  mode: string;
  action: string;
  file_name: string;
  rows_total: number;
  /** The create's Caller (required fields, defaults) as the import was accepted. */
  caller: ColumnType<unknown, string, string>;
  created_by_type: string;
  created_by_id: string;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** One row of an import: a line of its file, or a domain a SYNC deactivates (line null). */
export interface ImportRowsTable {
  id: Generated<string>;
  import_id: string;
  line: number | null;
  hostname: string;
  outcome: string;
  state: string;
  /** The row as a create-domain body (CREATE rows), parsed again by the job with the same schema. */
  input: ColumnType<unknown, string | null, string | null>;
  domain_id: string | null;
  errors: ColumnType<unknown, string | undefined, string>;
  attempts: Generated<number>;
  due_at: Timestamp;
  done_at: NullableTimestamp;
}

/** A registration widget's registration, until its e-mailed link is opened (onboarding/). */
export interface RegistrationsTable {
  id: string;
  partner_id: string;
  /** SHA-256 of the link's token; the token itself is only in the e-mail. */
  token_hash: Buffer;
  email: string;
  hostname: string;
  /** The registration as given (RegistrationBody), made a create-domain body when the link is opened. */
  input: ColumnType<unknown, string, string>;
  expires_at: Timestamp;
  confirmed_at: NullableTimestamp;
  domain_id: string | null;
  property_id: string | null;
  created_at: Generated<Date>;
}

/** A scan widget's request: the scan it started or joined, and whom to e-mail the report (scanner/). */
export interface WidgetScansTable {
  id: string;
  partner_id: string;
  /** SHA-256 of the status token the widget reads the scan with. */
  token_hash: Buffer;
  scan_id: string;
  domain_id: string;
  hostname: string;
  email: string;
  reported_at: NullableTimestamp;
  created_at: Generated<Date>;
}

import type { ColumnType, Generated } from 'kysely';
import type { MailQueueTable } from '@platform/mail';
import type { DataCollectionItem } from '@platform/contracts';
import type { DataControllerBase } from '../domain/property-projection';

export const SCHEMA = 'consent';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Projection of domains-svc's events: what a property's records need and whose it is. */
export interface PropertiesTable {
  property_id: string;
  partner_id: string;
  domain_id: string;
  hostname: string;
  /** Every hostname a widget request may come from besides hostname (its subdomains). */
  subdomains: string[];
  status: string;
  /** The partner's merchant_ids the domain names. */
  merchant_ids: string[];
  /** The merchants' own ids, where known (empty until domain events carry them). */
  merchant_refs: string[];
  company_id: string;
  company: Json<DataControllerBase>;
  /** The data collection the site scanner found (domains-svc's property.updated), one item per category in use. */
  scanned_collection: ColumnType<DataCollectionItem[], string | undefined, string>;
  /** The property offers the data subject request form (domain.created, then property.updated). */
  has_dsar: Generated<boolean>;
  deleted: Generated<boolean>;
  updated_at: Timestamp;
}

export interface RecordsTable {
  id: string;
  partner_id: string;
  property_id: string;
  domain_id: string;
  receipt_type: string;
  receipt_status: string;
  /** The record as the API shows it, without signature (what the signature covers). */
  body: Json<Record<string, unknown>>;
  signature: string;
  nonce: string;
  created_at: Timestamp;
  /** The record's meta.regime (null on records made before regimes): for reads by regime. */
  regime: string | null;
}

export interface DataRequestsTable {
  id: string;
  partner_id: string;
  property_id: string;
  domain_id: string;
  type: string;
  email: string;
  name: string | null;
  message: string | null;
  subject: string | null;
  receipt_id: string | null;
  /** Past the property's or owner's hourly limit: stored, not e-mailed one by one. */
  held: Generated<boolean>;
  /** When a held request was named in the owner's summary e-mail. */
  summarised_at: Date | null;
  created_at: Generated<Date>;
  /** DsarStatus (libs/contracts). */
  status: Generated<string>;
  /** SHA-256 of the confirmation link's token, until the link is used or expires. */
  token_hash: Buffer | null;
  confirm_expires_at: Date | null;
  /** SHA-256 of the client address, for the per-client throttle (the address itself is never stored). */
  client_hash: Buffer | null;
  country: string | null;
  jurisdiction: string | null;
  /** DsarDeadlineRule: GDPR (30 days + 60) or US_STATE (45 + 45). */
  deadline_rule: Generated<string>;
  verified_at: Date | null;
  due_at: Date | null;
  extended_at: Date | null;
  extension_reason: string | null;
  /** The reminder days (days before due) already e-mailed to the owner. */
  reminded_days: Generated<number[]>;
  overdue_at: Date | null;
  closed_at: Date | null;
}

export interface DataRequestHistoryTable {
  id: Generated<string>;
  request_id: string;
  at: Generated<Date>;
  kind: string;
  status: string | null;
  note: string | null;
  actor: string | null;
}

export interface ConsentDb {
  properties: PropertiesTable;
  records: RecordsTable;
  data_requests: DataRequestsTable;
  data_request_history: DataRequestHistoryTable;
  mail_queue: MailQueueTable;
}

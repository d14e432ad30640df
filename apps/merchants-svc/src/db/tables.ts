import type { ColumnType, Generated } from 'kysely';

export const SCHEMA = 'merchants';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MerchantsTable {
  id: Generated<string>;
  partner_id: string;
  /** The partner's own id for the merchant; unique per partner. */
  merchant_id: string;
  company_name: string | null;
  description: string | null;
  /** jsonb: read as the object, written as its JSON text. */
  meta: ColumnType<Record<string, string>, string | undefined, string>;
  default_product: string | null;
  default_price_list: string | null;
  /** When a domain first named this merchant. */
  registered_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Projection of domain.changed: one row per domain and merchant it is linked to. */
interface DomainLinksTable {
  domain_id: string;
  partner_id: string;
  /** The merchant's id (merchants.id): the link is to the merchant itself. */
  merchant_ref: string;
  /** The merchant_id the domain named when the link was made. */
  requested_as: string;
  hostname: string;
  status: string;
  is_active: boolean;
  email: string;
  source: string;
  domain_created_at: Timestamp;
  linked_at: Timestamp;
}

/** Links a merchant's delete cleared (see the migration). */
interface ClearedLinksTable {
  domain_id: string;
  requested_as: string;
  partner_id: string;
  cleared_at: Generated<Date>;
}

export interface MerchantsDb {
  merchants: MerchantsTable;
  domain_links: DomainLinksTable;
  cleared_links: ClearedLinksTable;
}

import type { ColumnType, Generated } from 'kysely';

export const GATEWAY_SCHEMA = 'gateway';
/** NOTIFY channel: payload is the prefix of a key whose cached record must be dropped. */
export const KEYS_CHANNEL = 'gateway_keys';

/** Create-domain fields a partner's onboarding settings may make required. */
export const REQUIRED_FIELD_OPTIONS = ['account_first_name', 'account_last_name', 'phone_number'] as const;
export type RequiredField = (typeof REQUIRED_FIELD_OPTIONS)[number];

export interface PartnersTable {
  id: Generated<string>;
  name: string;
  required_fields: ColumnType<string[], string[] | undefined, string[]>;
  /** Product and price list codes (billing-svc's catalogue) for domains created without them. */
  default_product: ColumnType<string | null, string | null | undefined, string | null>;
  default_price_list: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, never, never>;
}

export interface ApiKeysTable {
  id: Generated<string>;
  partner_id: string;
  name: string | null;
  /** Non-secret, readable part of the key (pdm_live_<id>), used for lookup. */
  prefix: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  secret_hash: Buffer;
  permissions: string[];
  allowed_ip: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export interface GatewayDb {
  partners: PartnersTable;
  api_keys: ApiKeysTable;
}

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

/** A partner's Idempotency-Key and the answer it replays (Stripe's semantics, see domain/idempotency.ts). */
export interface IdempotencyKeysTable {
  partner_id: string;
  key: string;
  /** SHA-256 of method, path and canonical body: another request under the same key is refused. */
  fingerprint: Buffer;
  /** Random per claim: only the request that claimed the key may complete or release it. */
  owner: string;
  /** null while the first request is in flight. */
  status: number | null;
  content_type: string | null;
  body: Buffer | null;
  /** An in-flight claim older than this was abandoned (gateway crash) and may be taken over. */
  locked_until: Date;
  expires_at: Date;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

export interface GatewayDb {
  partners: PartnersTable;
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
}

import { sql, type Kysely } from '@platform/db';
import { migrateSchema, type ServiceMigration } from '@platform/service';
import { GATEWAY_SCHEMA, type GatewayDb } from './tables';

/** Forward-only migrations of the gateway schema (which has none of the chassis' tables), applied in name order. */
export const migrations: Record<string, ServiceMigration> = {
  '2024_01_01_0001_partners_and_api_keys': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE partners (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
          required_fields text[] NOT NULL DEFAULT '{}'
            CHECK (required_fields <@ ARRAY['account_first_name', 'account_last_name', 'phone_number']::text[]),
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`
        CREATE TABLE api_keys (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          partner_id uuid NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
          name text,
          prefix text NOT NULL UNIQUE,
          secret_hash bytea NOT NULL CHECK (length(secret_hash) = 32),
          permissions text[] NOT NULL,
          allowed_ip text,
          expires_at timestamptz,
          revoked_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX api_keys_partner_id ON api_keys (partner_id, created_at)`.execute(db);
    },
  },
  // No longer used: the service that owns a write keeps its Idempotency-Key (libs/service idempotency).
  // Kept while gateways of the previous release still run; a later release drops it.
  '2026_11_22_0001_idempotency_keys': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE idempotency_keys (
          partner_id uuid NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
          key text NOT NULL,
          fingerprint bytea NOT NULL,
          owner uuid NOT NULL,
          status integer,
          content_type text,
          body bytea,
          locked_until timestamptz NOT NULL,
          expires_at timestamptz NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (partner_id, key)
        )`.execute(db);
      await sql`CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)`.execute(db);
    },
  },
  '2026_11_23_0001_partner_defaults': {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE partners ADD COLUMN default_product text, ADD COLUMN default_price_list text`.execute(db);
    },
  },
};

/** Applies the gateway's migrations (the migrator is schema-agnostic, hence the widening). */
export const migrateGateway = (db: Kysely<GatewayDb>) =>
  migrateSchema(db as unknown as Kysely<unknown>, { schema: GATEWAY_SCHEMA, chassis: {}, service: migrations });

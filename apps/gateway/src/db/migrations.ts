import { sql, type Kysely } from '@platform/db';
import { createMailQueueRecipientIndex, createMailQueueTable } from '@platform/mail';
import { migrateSchema, type ServiceMigration } from '@platform/service';
import { ALL_SESSIONS, GATEWAY_SCHEMA, SESSIONS_CHANNEL, type GatewayDb } from './tables';

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
  // The gateway's own writes keep their Idempotency-Key here (libs/service idempotency, as a
  // service's chassis table); forwarded writes keep theirs in the service that does the write.
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
  '2026_11_26_0001_portal_identity': {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE partners ADD COLUMN totp_required boolean NOT NULL DEFAULT false`.execute(db);
      await createUsersAndSessions(db);
      await sql`
        ALTER TABLE api_keys
          ADD COLUMN created_by_type text CHECK (created_by_type IN ('USER', 'OPERATOR')),
          ADD COLUMN created_by_id uuid REFERENCES users (id) ON DELETE SET NULL,
          ADD COLUMN last_used_at timestamptz,
          ADD COLUMN rolled_to uuid REFERENCES api_keys (id) ON DELETE SET NULL`.execute(db);
      await createAuditEvents(db);
      await createMailQueueTable(db);
      await createMailQueueRecipientIndex(db);
    },
  },
  // The table of 2026_11_22 takes libs/service's IdempotencyKeys (the chassis' idempotency_keys has
  // headers where it had content_type; keys and answers are found and sealed alike). content_type
  // stays, unused, while gateways of the release that kept every write's key here (before the
  // services kept them) may still run; a later release drops it.
  '2026_11_26_0002_idempotency_keys_headers': {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE idempotency_keys ADD COLUMN headers jsonb`.execute(db);
    },
  },
  '2026_11_27_0001_session_change_notices': { up: createSessionChangeTriggers },
  // The customer's own account console: its users, and their sign-in links and sessions in the
  // partner users' tables (one sign-in mechanism), told apart by subject and audience.
  '2026_11_28_0001_owner_access': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE owner_users (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          partner_id uuid NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
          company_id text NOT NULL,
          email text NOT NULL CHECK (email = lower(email)),
          name text,
          role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'VIEWER')),
          access boolean NOT NULL DEFAULT true,
          last_sign_in_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (partner_id, company_id, email)
        )`.execute(db);
      await sql`CREATE INDEX owner_users_company ON owner_users (partner_id, company_id, created_at, id)`.execute(db);
      await sql`
        ALTER TABLE sign_in_tokens
          ALTER COLUMN user_id DROP NOT NULL,
          ADD COLUMN owner_user_id uuid REFERENCES owner_users (id) ON DELETE CASCADE,
          ADD CONSTRAINT sign_in_tokens_one_subject CHECK (num_nonnulls(user_id, owner_user_id) = 1)`.execute(db);
      await sql`CREATE INDEX sign_in_tokens_owner_user ON sign_in_tokens (owner_user_id)`.execute(db);
      await sql`
        ALTER TABLE sessions
          ALTER COLUMN user_id DROP NOT NULL,
          ADD COLUMN owner_user_id uuid REFERENCES owner_users (id) ON DELETE CASCADE,
          ADD COLUMN audience text NOT NULL DEFAULT 'PARTNER' CHECK (audience IN ('PARTNER', 'OWNER')),
          ADD CONSTRAINT sessions_audience_subject CHECK (
            (audience = 'PARTNER' AND user_id IS NOT NULL AND owner_user_id IS NULL)
            OR (audience = 'OWNER' AND owner_user_id IS NOT NULL AND user_id IS NULL))`.execute(db);
      await sql`CREATE INDEX sessions_owner_user ON sessions (owner_user_id)`.execute(db);
    },
  },
  // The owner console's changes are in the partner's audit log, naming the customer's user (actor OWNER).
  '2026_11_29_0001_owner_audit_actor': {
    async up(db: Kysely<unknown>) {
      await sql`
        ALTER TABLE audit_events
          DROP CONSTRAINT audit_events_actor_type_check,
          ADD CONSTRAINT audit_events_actor_type_check
            CHECK (actor_type IN ('USER', 'API_KEY', 'OPERATOR', 'OWNER'))`.execute(db);
    },
  },
  // The registration and scan widgets a partner embeds on its own pages: off until turned on.
  '2026_11_30_0001_onboarding_widgets': {
    async up(db: Kysely<unknown>) {
      const off = { enabled: false, allowed_origins: [], primary_color: null };
      const both = JSON.stringify({ registration: off, scan: off });
      await sql`ALTER TABLE partners ADD COLUMN onboarding_widgets jsonb NOT NULL DEFAULT ${sql.lit(both)}::jsonb`.execute(
        db,
      );
    },
  },
};

/**
 * Gateways answer sessions from memory (identity/session-cache.ts) while LISTENing on
 * SESSIONS_CHANNEL: every change of what a session resolves to NOTIFYs at its commit, whoever
 * makes it (the portal, the admin CLI, an operator's psql, a cascade), so none can be missed by a
 * call site. A session's touch (last_seen_at moving forward, once a minute) is no such change.
 */
async function createSessionChangeTriggers(db: Kysely<unknown>) {
  await sql`
        CREATE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify(TG_ARGV[0], CASE WHEN TG_OP = 'TRUNCATE' THEN TG_ARGV[1] ELSE OLD.id::text END);
          RETURN NULL;
        END $$`.execute(db);
  const notify = sql`EXECUTE FUNCTION notify_session_change(${sql.lit(SESSIONS_CHANNEL)}, ${sql.lit(ALL_SESSIONS)})`;
  await sql`
        CREATE TRIGGER sessions_changed AFTER UPDATE ON sessions FOR EACH ROW
          WHEN (NEW.last_seen_at < OLD.last_seen_at
            OR (to_jsonb(OLD) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at'))
          ${notify}`.execute(db);
  await sql`CREATE TRIGGER sessions_ended AFTER DELETE ON sessions FOR EACH ROW ${notify}`.execute(db);
  await sql`CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW ${notify}`.execute(db);
  await sql`CREATE TRIGGER partners_changed AFTER UPDATE OR DELETE ON partners FOR EACH ROW ${notify}`.execute(db);
  for (const table of ['sessions', 'users', 'partners'])
    await sql`CREATE TRIGGER ${sql.raw(`${table}_truncated`)} AFTER TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT ${notify}`.execute(db);
}

/** Portal users, their sign-in link tokens, sessions and TOTP recovery codes (tokens and ids only as SHA-256). */
async function createUsersAndSessions(db: Kysely<unknown>) {
  await sql`
        CREATE TABLE users (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          partner_id uuid NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
          email text NOT NULL CHECK (email = lower(email)),
          name text,
          role text NOT NULL CHECK (role IN ('ADMINISTRATOR', 'ACCOUNT_MANAGER', 'DEVELOPER')),
          status text NOT NULL DEFAULT 'INVITED' CHECK (status IN ('INVITED', 'ACTIVE', 'DEACTIVATED')),
          totp_secret text,
          totp_pending_secret text,
          totp_enabled_at timestamptz,
          totp_last_step integer,
          last_sign_in_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (partner_id, email)
        )`.execute(db);
  await sql`CREATE INDEX users_email ON users (email)`.execute(db);
  await sql`
        CREATE TABLE sign_in_tokens (
          token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
          user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          expires_at timestamptz NOT NULL,
          used_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
  await sql`CREATE INDEX sign_in_tokens_user ON sign_in_tokens (user_id)`.execute(db);
  await sql`
        CREATE TABLE sessions (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
          user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          stage text NOT NULL CHECK (stage IN ('ACTIVE', 'TOTP_REQUIRED', 'TOTP_ENROLMENT_REQUIRED')),
          csrf_token text NOT NULL,
          last_seen_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
  await sql`CREATE INDEX sessions_user ON sessions (user_id)`.execute(db);
  await sql`
        CREATE TABLE recovery_codes (
          user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          code_hash bytea NOT NULL CHECK (length(code_hash) = 32),
          used_at timestamptz,
          PRIMARY KEY (user_id, code_hash)
        )`.execute(db);
}

/** Who did what in a partner's account (GET /portal/audit-events). */
async function createAuditEvents(db: Kysely<unknown>) {
  await sql`
        CREATE TABLE audit_events (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          partner_id uuid NOT NULL REFERENCES partners (id) ON DELETE CASCADE,
          kind text NOT NULL,
          actor_type text NOT NULL CHECK (actor_type IN ('USER', 'API_KEY', 'OPERATOR')),
          actor_id text,
          actor_label text NOT NULL,
          target_type text,
          target_id text,
          details jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
  await sql`CREATE INDEX audit_events_partner ON audit_events (partner_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_events_partner_actor ON audit_events (partner_id, actor_id, created_at DESC)`.execute(
    db,
  );
}

/** Applies the gateway's migrations (the migrator is schema-agnostic, hence the widening). */
export const migrateGateway = (db: Kysely<GatewayDb>) =>
  migrateSchema(db as unknown as Kysely<unknown>, { schema: GATEWAY_SCHEMA, chassis: {}, service: migrations });

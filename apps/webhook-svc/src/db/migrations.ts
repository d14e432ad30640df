import { sql, type Kysely } from '@platform/db';
import type { ServiceMigration } from '@platform/service';

/** Forward-only migrations of the `webhooks` schema (the pool's search_path is the schema); the chassis adds its own tables. */
export const migrations: Record<string, ServiceMigration> = {
  '2026_11_22_0001_webhooks': {
    async up(db: Kysely<unknown>) {
      await createEndpoints(db);
      await createMessages(db);
      await createDeliveries(db);
      await createAttempts(db);
    },
  },
  '2026_11_26_0001_dashboard_indexes': {
    // The Dashboard's webhook health, per partner: its pending deliveries (count, oldest) and each
    // endpoint's latest attempts, without reading other partners' rows.
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX deliveries_partner_pending ON deliveries (partner_id, created_at) WHERE status = 'pending'`.execute(
        db,
      );
      await sql`CREATE INDEX attempts_endpoint ON attempts (endpoint_id, attempted_at)`.execute(db);
    },
  },
  '2026_11_27_0001_message_traceparent': {
    // The trace context of the event's consumer span (null with tracing off): every attempt of its
    // deliveries, however much later, is a span in the event's trace.
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE messages ADD COLUMN traceparent text`.execute(db);
    },
  },
};

/** 2026_11_22_0001_webhooks: partners' endpoints. */
async function createEndpoints(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE endpoints (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      events text[],
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      failing_since timestamptz,
      last_success_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // Fan-out looks up a partner's enabled endpoints; lists go newest first.
  await sql`CREATE INDEX endpoints_partner ON endpoints (partner_id, created_at DESC, id)`.execute(db);
}

/** 2026_11_22_0001_webhooks: the events to deliver, one row each. */
async function createMessages(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE messages (
      id uuid PRIMARY KEY,
      partner_id text NOT NULL,
      event text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX messages_created ON messages (created_at)`.execute(db);
}

/** 2026_11_22_0001_webhooks: one delivery per message and endpoint. */
async function createDeliveries(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE deliveries (
      id uuid PRIMARY KEY,
      message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      endpoint_id uuid NOT NULL REFERENCES endpoints (id) ON DELETE CASCADE,
      partner_id text NOT NULL,
      event text NOT NULL,
      status text NOT NULL,
      attempt_count integer NOT NULL DEFAULT 0,
      final_attempt boolean NOT NULL DEFAULT false,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (message_id, endpoint_id)
    )`.execute(db);
  // What workers claim: due pending deliveries, first attempts and retries apart.
  await sql`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX deliveries_endpoint ON deliveries (endpoint_id, created_at DESC, id)`.execute(db);
  await sql`CREATE INDEX deliveries_prune ON deliveries (updated_at) WHERE status <> 'pending'`.execute(db);
}

/** 2026_11_22_0001_webhooks: every attempt of a delivery. */
async function createAttempts(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE attempts (
      id bigserial PRIMARY KEY,
      delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
      endpoint_id uuid NOT NULL,
      attempted_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      error text,
      error_message text,
      response_body text,
      response_truncated boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE INDEX attempts_delivery ON attempts (delivery_id, attempted_at)`.execute(db);
  await sql`CREATE INDEX attempts_time ON attempts (attempted_at)`.execute(db);
}

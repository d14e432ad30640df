import { sql, type Kysely, type Migration } from '@platform/db';

/**
 * idempotency_keys in a service's schema: a partner's Idempotency-Key, and the answer it replays,
 * written in the same transaction as the request's effect. Neither the key nor the answer is kept
 * in the clear (see keys.repository.ts).
 */
export const idempotencyKeysMigration = (schema: string): Migration => ({
  async up(db: Kysely<unknown>) {
    const table = sql.id(schema, 'idempotency_keys');
    await sql`
      CREATE TABLE ${table} (
        partner_id text NOT NULL,
        key text NOT NULL,
        fingerprint bytea NOT NULL,
        owner uuid NOT NULL,
        status integer,
        headers jsonb,
        body bytea,
        locked_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (partner_id, key)
      )`.execute(db);
    await sql`CREATE INDEX idempotency_keys_expires_at ON ${table} (expires_at)`.execute(db);
  },
});

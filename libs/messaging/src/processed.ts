import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration creating <schema>.processed_messages, the consumer side of idempotency: a message id
 * recorded in the same transaction as its effect. Keyed by consumer (queue) too, because two
 * consumers of one service may each have to handle the same message.
 */
export function consumerMigration(schema: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE ${sql.id(schema, 'processed_messages')} (
          consumer text NOT NULL,
          message_id text NOT NULL,
          processed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, message_id)
        )`.execute(db);
      await sql`CREATE INDEX ${sql.id(`${schema}_processed_messages_at`)} ON ${sql.id(schema, 'processed_messages')} (processed_at)`.execute(db);
    },
  };
}

/**
 * Records the id; false if this consumer already processed it. A concurrent duplicate waits on
 * the first one's row lock and then sees the conflict, so the effect still happens once.
 */
export async function recordProcessed<DB>(trx: Kysely<DB>, schema: string, consumer: string, messageId: string): Promise<boolean> {
  const { rows } = await sql<{ message_id: string }>`
    INSERT INTO ${sql.id(schema, 'processed_messages')} (consumer, message_id) VALUES (${consumer}, ${messageId})
    ON CONFLICT DO NOTHING RETURNING message_id`.execute(trx);
  return rows.length === 1;
}

/** Deletes ids older than the broker could still redeliver; run it from a periodic job. */
export async function pruneProcessedMessages<DB>(db: Kysely<DB>, schema: string, olderThan: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    WITH d AS (DELETE FROM ${sql.id(schema, 'processed_messages')} WHERE processed_at < ${olderThan} RETURNING 1)
    SELECT count(*)::text AS n FROM d`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

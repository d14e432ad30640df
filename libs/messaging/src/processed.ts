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
      await sql`CREATE INDEX ${sql.id(`${schema}_processed_messages_at`)} ON ${sql.id(schema, 'processed_messages')} (processed_at)`.execute(
        db,
      );
    },
  };
}

/**
 * Records the ids; answers those this consumer had not processed yet (an id given twice counts
 * once). A concurrent duplicate waits on the first one's row lock and then sees the conflict, so
 * the effect still happens once.
 */
export async function recordProcessed<DB>(
  trx: Kysely<DB>,
  schema: string,
  consumer: string,
  messageIds: string[],
): Promise<Set<string>> {
  const { rows } = await sql<{ message_id: string }>`
    INSERT INTO ${sql.id(schema, 'processed_messages')} (consumer, message_id)
    SELECT ${consumer}, id FROM UNNEST(${messageIds}::text[]) AS t(id)
    ON CONFLICT DO NOTHING RETURNING message_id`.execute(trx);
  return new Set(rows.map((r) => r.message_id));
}

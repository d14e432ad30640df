import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migration adding <schema>.outbox.traceparent: the W3C trace context active when the row was
 * written (null when tracing is off), so the relay publishes the event in the same trace.
 */
export function outboxTraceparentMigration(schema: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE ${sql.id(schema, 'outbox')} ADD COLUMN traceparent text`.execute(db);
    },
  };
}

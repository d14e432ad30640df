import { sql, type Kysely } from 'kysely';

/**
 * Deletes rows matching `where` in batches (each its own statement, so no run holds big locks or
 * a long transaction); returns how many went.
 */
export async function deleteInBatches(db: Kysely<unknown>, table: { schema: string; name: string }, where: ReturnType<typeof sql>, batch = 1_000): Promise<number> {
  const t = sql.id(table.schema, table.name);
  let total = 0;
  for (;;) {
    const { numAffectedRows } = await sql`DELETE FROM ${t} WHERE ctid IN (SELECT ctid FROM ${t} WHERE ${where} LIMIT ${batch})`.execute(db);
    const n = Number(numAffectedRows ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

/** The chassis' housekeeping: published outbox rows and processed message ids older than their retention. */
export function pruneChassisTables(schema: string, retention: { outboxMs: number; processedMs: number }) {
  return async (db: Kysely<unknown>, now: Date) => {
    const outbox = await deleteInBatches(db, { schema, name: 'outbox' }, sql`published_at IS NOT NULL AND published_at < ${new Date(now.getTime() - retention.outboxMs)}`);
    const processed = await deleteInBatches(db, { schema, name: 'processed_messages' }, sql`processed_at < ${new Date(now.getTime() - retention.processedMs)}`);
    return { outbox, processed };
  };
}

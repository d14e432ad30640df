import { sql, type RawBuilder } from 'kysely';
import type { SqlExecutor } from './runner';

export interface BatchOptions {
  /** Rows per statement (default 1,000). */
  batch?: number;
  /** Stops between batches once aborted (the job's signal). */
  signal?: AbortSignal;
}

/**
 * Deletes rows matching `where` in batches, each its own statement (pass the pool, not a
 * transaction), so no run holds many row locks or a long transaction; returns how many went.
 * Stops between batches when the signal is aborted: the next run deletes the rest.
 */
export async function deleteInBatches(
  db: SqlExecutor,
  table: { schema?: string; name: string },
  where: RawBuilder<unknown>,
  options: BatchOptions = {},
): Promise<number> {
  const t = table.schema ? sql.id(table.schema, table.name) : sql.id(table.name);
  const batch = options.batch ?? 1_000;
  let total = 0;
  while (!options.signal?.aborted) {
    const { numAffectedRows } =
      await sql`DELETE FROM ${t} WHERE ctid IN (SELECT ctid FROM ${t} WHERE ${where} LIMIT ${batch})`.execute(db);
    const n = Number(numAffectedRows ?? 0);
    total += n;
    if (n < batch) break;
  }
  return total;
}

/**
 * The chassis' housekeeping: published outbox rows and processed message ids older than their
 * retention. Unpublished outbox rows are never deleted, however old.
 */
export function pruneChassisTables(
  schema: string,
  retention: { outboxMs: number; processedMs: number },
  options: Pick<BatchOptions, 'batch'> = {},
) {
  return async (db: SqlExecutor, now: Date, signal?: AbortSignal) => {
    const batch = { ...options, signal };
    const outboxBefore = new Date(now.getTime() - retention.outboxMs);
    const processedBefore = new Date(now.getTime() - retention.processedMs);
    const outbox = await deleteInBatches(
      db,
      { schema, name: 'outbox' },
      sql`published_at IS NOT NULL AND published_at < ${outboxBefore}`,
      batch,
    );
    const processed = await deleteInBatches(
      db,
      { schema, name: 'processed_messages' },
      sql`processed_at < ${processedBefore}`,
      batch,
    );
    return { outbox, processed };
  };
}

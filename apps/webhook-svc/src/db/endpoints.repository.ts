import type { Selectable, Updateable } from 'kysely';
import { sql, type Kysely } from '@platform/db';
import type { EndpointsTable, WebhooksDb } from './tables';

export type EndpointRow = Selectable<EndpointsTable>;

export async function insertEndpoint(
  db: Kysely<WebhooksDb>,
  row: { id: string; partner_id: string; url: string; description: string; events: string[] | null; secret: string },
) {
  return db.insertInto('endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findEndpoint(db: Kysely<WebhooksDb>, partnerId: string, id: string) {
  return db
    .selectFrom('endpoints')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listEndpoints(
  db: Kysely<WebhooksDb>,
  partnerId: string,
  window: { offset: number; limitPlusOne: number },
) {
  return db
    .selectFrom('endpoints')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(window.offset)
    .limit(window.limitPlusOne)
    .execute();
}

export async function updateEndpoint(
  db: Kysely<WebhooksDb>,
  partnerId: string,
  id: string,
  changes: Updateable<EndpointsTable>,
) {
  return db
    .updateTable('endpoints')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(db: Kysely<WebhooksDb>, partnerId: string, id: string) {
  const result = await db
    .deleteFrom('endpoints')
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Enabled endpoints failing since before `before` are disabled as failing; returns how many. */
export async function disableFailingEndpoints(db: Kysely<WebhooksDb>, before: Date, now: Date): Promise<number> {
  const result = await db
    .updateTable('endpoints')
    .set({ enabled: false, disabled_reason: 'failing', updated_at: now })
    .where('enabled', '=', true)
    .where('failing_since', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

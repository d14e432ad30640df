import type { Selectable } from 'kysely';
import { sql, type Kysely } from '@platform/db';
import { deleteInBatches } from '@platform/jobs';
import type { AttemptsTable, DeliveriesTable, WebhooksDb } from './tables';

export type DeliveryRow = Selectable<DeliveriesTable> & { body: string };
export type AttemptRow = Selectable<AttemptsTable>;

/** A delivery of its own message (a test send): both rows, on the caller's transaction. */
export async function insertSingleDelivery(
  trx: Kysely<WebhooksDb>,
  delivery: { id: string; partnerId: string; endpointId: string; event: string; body: string },
) {
  await trx
    .insertInto('messages')
    .values({ id: delivery.id, partner_id: delivery.partnerId, event: delivery.event, body: delivery.body })
    .execute();
  await trx
    .insertInto('deliveries')
    .values({
      id: delivery.id,
      message_id: delivery.id,
      endpoint_id: delivery.endpointId,
      partner_id: delivery.partnerId,
      event: delivery.event,
      status: 'pending',
      next_attempt_at: sql<Date>`now()`,
    })
    .execute();
}

/** NOTIFY channel that wakes delivery workers when the API queues a delivery (test send, retry, recovery). */
export const DUE_CHANNEL = 'webhooks_due';

/** Wakes the delivery workers at commit (they LISTEN on the channel). */
export const notifyDue = (trx: Kysely<WebhooksDb>) => sql`SELECT pg_notify(${DUE_CHANNEL}, '')`.execute(trx);

interface DeliveryFilters {
  status?: string;
  event?: string;
}

const deliveryColumns = (db: Kysely<WebhooksDb>) =>
  db.selectFrom('deliveries as d').innerJoin('messages as m', 'm.id', 'd.message_id').selectAll('d').select('m.body');

export async function listDeliveries(
  db: Kysely<WebhooksDb>,
  endpointId: string,
  filters: DeliveryFilters,
  window: { offset: number; limitPlusOne: number },
): Promise<DeliveryRow[]> {
  let query = deliveryColumns(db).where('d.endpoint_id', '=', endpointId);
  if (filters.status) query = query.where('d.status', '=', filters.status as DeliveryRow['status']);
  if (filters.event) query = query.where('d.event', '=', filters.event);
  return query
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .offset(window.offset)
    .limit(window.limitPlusOne)
    .execute();
}

export async function findDelivery(
  db: Kysely<WebhooksDb>,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  return deliveryColumns(db).where('d.endpoint_id', '=', endpointId).where('d.id', '=', id).executeTakeFirst();
}

export async function attemptsOf(db: Kysely<WebhooksDb>, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/**
 * One more attempt now (a manual retry), with the same webhook-id and body. A delivery a worker
 * holds right now is left to that worker: it is being attempted already.
 */
export async function scheduleManualAttempt(db: Kysely<WebhooksDb>, endpointId: string, id: string): Promise<void> {
  await db
    .updateTable('deliveries')
    // A pending delivery keeps its remaining schedule; a finished one gets this one attempt.
    .set({
      status: 'pending',
      final_attempt: sql<boolean>`status <> 'pending'`,
      next_attempt_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .execute();
}

/** Every failed delivery of the endpoint created in [since, until): one more attempt each. */
export async function scheduleRecovery(
  db: Kysely<WebhooksDb>,
  endpointId: string,
  since: Date,
  until: Date,
): Promise<number> {
  const result = await db
    .updateTable('deliveries')
    .set({ status: 'pending', final_attempt: true, next_attempt_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .where('created_at', '<', until)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes finished deliveries last changed before `before` (their attempts cascade), then messages
 * older than that no delivery refers to; in batches (pass the pool), stopping between them once
 * `signal` is aborted. Pending deliveries are never deleted.
 */
export async function pruneFinishedDeliveries(
  db: Kysely<WebhooksDb>,
  before: Date,
  signal?: AbortSignal,
): Promise<{ deliveries: number; messages: number }> {
  const deliveries = await deleteInBatches(
    db,
    { name: 'deliveries' },
    sql`status <> 'pending' AND updated_at < ${before}`,
    { signal },
  );
  const messages = await deleteInBatches(
    db,
    { name: 'messages' },
    sql`created_at < ${before} AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = messages.id)`,
    { signal },
  );
  return { deliveries, messages };
}

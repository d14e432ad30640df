import { randomUUID } from 'node:crypto';
import { exampleEventPayload, isUuid, type PublicEventName } from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { listPage, notFound } from '@platform/http';
import * as deliveries from '../db/deliveries.repository';
import type { WebhooksContext } from './context';
import { findOwnEndpoint } from './endpoints.service';

/** A page of deliveries (or one), each with every attempt, oldest attempt first. */
async function withAttempts(ctx: WebhooksContext, rows: deliveries.DeliveryRow[]) {
  const attempts = await deliveries.attemptsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<string, deliveries.AttemptRow[]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((row) => ({ row, attempts: byDelivery.get(row.id) ?? [] }));
}

export async function listDeliveries(
  ctx: WebhooksContext,
  partnerId: string,
  endpointId: string,
  query: { page: number; limit: number; status?: string; event?: string },
) {
  const endpoint = await findOwnEndpoint(ctx, partnerId, endpointId);
  const page = await listPage(query, (window) =>
    deliveries.listDeliveries(ctx.db, endpoint.id, { status: query.status, event: query.event }, window),
  );
  return { meta: page.meta, items: await withAttempts(ctx, page.items) };
}

export async function getDelivery(ctx: WebhooksContext, partnerId: string, endpointId: string, deliveryId: string) {
  const endpoint = await findOwnEndpoint(ctx, partnerId, endpointId);
  const row = isUuid(deliveryId)
    ? await deliveries.findDelivery(ctx.db, endpoint.id, deliveryId.toLowerCase())
    : undefined;
  if (!row) throw notFound('delivery');
  return (await withAttempts(ctx, [row]))[0];
}

/** Queues the example body of an event type for the endpoint, signed, sent and logged like any event. */
export async function sendTest(
  ctx: WebhooksContext,
  partnerId: string,
  endpointId: string,
  event: PublicEventName = 'domain.created',
) {
  const endpoint = await findOwnEndpoint(ctx, partnerId, endpointId);
  const id = randomUUID();
  await inTransaction(ctx.db, async (trx) => {
    await deliveries.insertSingleDelivery(trx, {
      id,
      partnerId,
      endpointId: endpoint.id,
      event,
      body: JSON.stringify(exampleEventPayload(event)),
    });
    await deliveries.notifyDue(trx);
  });
  return getDelivery(ctx, partnerId, endpoint.id, id);
}

export async function retryDelivery(ctx: WebhooksContext, partnerId: string, endpointId: string, deliveryId: string) {
  const { row } = await getDelivery(ctx, partnerId, endpointId, deliveryId);
  await inTransaction(ctx.db, async (trx) => {
    await deliveries.scheduleManualAttempt(trx, row.endpoint_id, row.id);
    await deliveries.notifyDue(trx);
  });
  return getDelivery(ctx, partnerId, endpointId, deliveryId);
}

export async function recoverDeliveries(
  ctx: WebhooksContext,
  partnerId: string,
  endpointId: string,
  since: string,
  until?: string,
) {
  const endpoint = await findOwnEndpoint(ctx, partnerId, endpointId);
  return inTransaction(ctx.db, async (trx) => {
    const recovered = await deliveries.scheduleRecovery(
      trx,
      endpoint.id,
      new Date(since),
      until ? new Date(until) : new Date(),
    );
    await deliveries.notifyDue(trx);
    return recovered;
  });
}

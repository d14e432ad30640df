import { PUBLIC_EVENT_NAMES, type EventMessage } from '@platform/contracts';
import type { BatchHandlerHooks } from '@platform/messaging';
import type { ConsumerSpec } from '@platform/service';
import type { Transaction } from '@platform/db';
import { fanOut } from './delivery-work.repository';
import type { WebhooksDb } from '../db/tables';
import type { DeliveryWorker } from './delivery-worker';

/** The body partners receive: the spec's payload and nothing else, serialised once (these bytes are signed and sent on every attempt). */
const deliveryBody = (payload: EventMessage['payload']) =>
  JSON.stringify({
    event: payload.event,
    params: payload.params,
    ...(payload.entity ? { entity: payload.entity } : {}),
  });

/**
 * Every public event on the bus becomes one delivery per enabled endpoint of its partner that
 * wants it, recorded before anything is sent and before the message is acked; the events of a
 * batch in one statement. The queue is bound to every public event of the registry, so an event
 * added there (property.activated, the reminders) flows with no change here; internal events
 * never reach a partner.
 */
export function fanOutConsumer(worker: DeliveryWorker, leaseMs: number): ConsumerSpec<WebhooksDb> {
  const fanOutBatch = async (messages: EventMessage[], trx: Transaction<WebhooksDb>, hooks: BatchHandlerHooks) => {
    // Leased to this worker only when it can start them now; otherwise the poller (of any worker) claims them.
    const lease = worker.hasRoom() ? leaseMs : undefined;
    const work = await fanOut(
      trx,
      messages.map((m) => ({
        id: m.id,
        partnerId: m.partner_id,
        event: m.payload.event,
        body: deliveryBody(m.payload),
        // The attempts' spans join the event's trace (see attempt.ts).
        traceparent: hooks.traceparentOf(m),
      })),
      lease,
    );
    if (lease !== undefined && work.length > 0) hooks.afterCommit(() => worker.accept(work));
  };
  return {
    bindings: PUBLIC_EVENT_NAMES,
    prefetch: 50,
    batchHandlers: Object.fromEntries(PUBLIC_EVENT_NAMES.map((event) => [event, fanOutBatch])),
  };
}

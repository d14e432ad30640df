import { subscriptionChangedEvent, type SubscriptionState } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { writeOutbox } from '@platform/messaging';
import { SCHEMA, type BillingDb } from '../db/tables';

/** subscription.changed in the caller's transaction (with the request id given, else the current one); returns the version each change got. */
export async function writeSubscriptionChanges(
  trx: Kysely<BillingDb>,
  changes: { change: 'created' | 'product_changed' | 'ended'; subscription: SubscriptionState; requestId?: string }[],
): Promise<number[]> {
  const messages = await writeOutbox(
    trx,
    SCHEMA,
    'billing-svc',
    changes.map(({ change, subscription, requestId }) => ({
      partnerId: subscription.partner_id,
      aggregateId: subscription.id,
      payload: subscriptionChangedEvent(change, subscription),
      requestId,
    })),
  );
  return messages.map((m) => m.version);
}

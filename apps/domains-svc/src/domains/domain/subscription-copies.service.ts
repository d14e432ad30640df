import type { SubscriptionState } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { applyAllIfNewer } from '@platform/messaging';
import { applySubscriptionStates } from '../db/subscription-copies.repository';
import { SCHEMA, type DomainsDb } from '../../db/tables';

/**
 * Applies subscription states to the domains' copies, each only when newer than what the copy has
 * (events can arrive late, twice or out of order, and a product change already applied the answer
 * of billing-svc's call). Two statements whatever the batch size; runs in the caller's transaction.
 */
export async function applySubscriptionUpdates(
  trx: Kysely<DomainsDb>,
  updates: { subscription: SubscriptionState; version: number }[],
) {
  const newer = await applyAllIfNewer(
    trx,
    SCHEMA,
    'subscription',
    updates.map((u) => ({ aggregateId: u.subscription.id, version: u.version })),
  );
  // The newest state of each subscription that was newer.
  const latest = new Map<string, { subscription: SubscriptionState; version: number }>();
  for (const u of updates)
    if (newer.has(u.subscription.id) && u.version >= (latest.get(u.subscription.id)?.version ?? 0))
      latest.set(u.subscription.id, u);
  await applySubscriptionStates(
    trx,
    [...latest.values()].map((u) => u.subscription),
  );
}

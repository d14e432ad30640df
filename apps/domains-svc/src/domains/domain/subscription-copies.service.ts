import type { SubscriptionState } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { newestIfNewer } from '@platform/messaging';
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
  const latest = await newestIfNewer(trx, SCHEMA, 'subscription', updates, (u) => ({
    aggregateId: u.subscription.id,
    version: u.version,
  }));
  await applySubscriptionStates(
    trx,
    latest.map((u) => u.subscription),
  );
}

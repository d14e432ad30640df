import type { SubscriptionProductChange } from '@platform/contracts';
import { inTransaction, sql, type Kysely, type Transaction } from '@platform/db';
import { validationError } from '@platform/http';
import * as subscriptions from '../db/subscriptions.repository';
import type { BillingDb } from '../db/tables';
import { writeSubscriptionChanges } from '../events/subscription-events.writer';
import { decideProductChanges } from './product-changes';

/**
 * Opens the subscriptions of new domains (from domain.created), each with the price its product
 * has on its price list, in a fixed number of statements. A repeated event, or a subscription a
 * product change already opened, is left alone.
 */
export async function openForNewDomains(
  trx: Transaction<BillingDb>,
  domains: {
    partnerId: string;
    subscriptionId: string;
    domainId: string;
    productId: number;
    priceListId: number;
    createdAt: string;
    requestId?: string;
  }[],
) {
  const prices = new Map<string, number>();
  for (const d of domains) {
    const key = `${d.productId}:${d.priceListId}`;
    if (prices.has(key)) continue;
    const priceId = await subscriptions.priceFor(trx, d.productId, d.priceListId);
    if (priceId === undefined) throw new Error(`no price for product ${d.productId} on price list ${d.priceListId}`);
    prices.set(key, priceId);
  }
  const opened = await subscriptions.openSubscriptions(
    trx,
    domains.map((d) => ({
      id: d.subscriptionId,
      partnerId: d.partnerId,
      domainId: d.domainId,
      productId: d.productId,
      priceListId: d.priceListId,
      priceId: prices.get(`${d.productId}:${d.priceListId}`)!,
      startDate: d.createdAt,
    })),
  );
  const requestIds = new Map(domains.map((d) => [d.subscriptionId, d.requestId]));
  await writeSubscriptionChanges(
    trx,
    opened.map((row) => ({
      change: 'created',
      subscription: subscriptions.toState(row),
      requestId: requestIds.get(row.id),
    })),
  );
}

/** Ends a deleted domain's subscriptions (INACTIVE, end_date now). */
export async function endForDeletedDomain(trx: Transaction<BillingDb>, partnerId: string, subscriptionIds: string[]) {
  // Locked in the one order first (an UPDATE locks in whatever order its plan finds the rows).
  await subscriptions.findSubscriptionsForUpdate(trx, subscriptionIds);
  const ended = await subscriptions.endSubscriptions(trx, partnerId, subscriptionIds);
  await writeSubscriptionChanges(
    trx,
    ended.map((row) => ({ change: 'ended', subscription: subscriptions.toState(row) })),
  );
}

/** How long a product change waits for its rows: within domains-svc's deadline for the call (SERVICE_CALL_TIMEOUT_MS, 4 s). */
const LOCK_WAIT_MS = 3_000;

/**
 * Product changes for one partner, all or nothing, in a fixed number of statements whatever the
 * batch size: a subscription billing has not heard of yet (its domain.created still on its way)
 * is opened from the call; the same product and price list again is not a change. Answers each
 * change's subscription state and version, for domains-svc's projection.
 */
export async function changeProducts(db: Kysely<BillingDb>, partnerId: string, changes: SubscriptionProductChange[]) {
  return inTransaction(db, async (trx) => {
    // A batch that cannot have its rows within the caller's deadline gives up (503) and frees its connection.
    await sql`SET LOCAL lock_timeout = ${sql.lit(`${LOCK_WAIT_MS}ms`)}`.execute(trx);
    const ids = [...new Set(changes.map((c) => c.subscription_id))];
    const { current, opened } = await lockOrOpen(trx, partnerId, ids, changes);
    const foreign = ids.filter((id) => current.get(id)!.partner_id !== partnerId);
    if (foreign.length > 0)
      throw validationError(
        foreign.map((id) => ({ path: 'body.changes', message: `subscription ${id} is not this partner's` })),
      );
    const { changed, wanted } = decideProductChanges(changes, current, new Set(opened.map((r) => r.id)));
    const updated = await subscriptions.changeProducts(
      trx,
      [...wanted].map(([id, w]) => ({ id, ...w })),
    );
    for (const row of updated) current.set(row.id, row);
    await writeSubscriptionChanges(trx, [
      ...opened.map((row) => ({ change: 'created' as const, subscription: subscriptions.toState(row) })),
      ...updated.map((row) => ({ change: 'product_changed' as const, subscription: subscriptions.toState(row) })),
    ]);
    const versions = await subscriptions.currentVersions(trx, ids);
    return changes.map((c, i) => ({
      subscription_id: c.subscription_id,
      changed: changed[i],
      subscription: subscriptions.toState(current.get(c.subscription_id)!),
      version: versions.get(c.subscription_id) ?? 0,
    }));
  });
}

/** The named subscriptions locked, those billing has not heard of opened from their first change; answers every one by id and the opened ones. */
async function lockOrOpen(
  trx: Transaction<BillingDb>,
  partnerId: string,
  ids: string[],
  changes: SubscriptionProductChange[],
) {
  const current = new Map((await subscriptions.findSubscriptionsForUpdate(trx, ids)).map((r) => [r.id, r]));
  const firstOf = new Map(changes.map((c) => [c.subscription_id, c]));
  const unknown = ids.filter((id) => !current.has(id)).map((id) => firstOf.get(id)!);
  const opened = await subscriptions.openSubscriptions(
    trx,
    unknown.map((c) => ({
      id: c.subscription_id,
      partnerId,
      domainId: c.domain_id,
      productId: c.product_id,
      priceListId: c.price_list_id,
      priceId: c.price_id,
      startDate: c.start_date,
    })),
  );
  for (const row of opened) current.set(row.id, row);
  // domain.created opened the others meanwhile (the insert waited for that commit): change them as they are now.
  const raced = unknown.filter((c) => !current.has(c.subscription_id)).map((c) => c.subscription_id);
  for (const row of await subscriptions.findSubscriptionsForUpdate(trx, raced)) current.set(row.id, row);
  return { current, opened };
}

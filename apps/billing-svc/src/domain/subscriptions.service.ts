import type { SubscriptionState } from '@platform/contracts';
import type { Kysely, Transaction } from '@platform/db';
import { validationError } from '@platform/http';
import * as subscriptions from '../db/subscriptions.repository';
import type { BillingDb } from '../db/tables';
import { writeSubscriptionChanges } from '../events/subscription-events.writer';

export interface ProductChange {
  subscription_id: string;
  domain_id: string;
  product_id: number;
  price_list_id: number;
  price_id: number;
  start_date: string;
}

/**
 * Opens the subscription of a new domain (from domain.created), with the price its product has
 * on its price list. A repeated event, or a subscription a product change already opened, is left alone.
 */
export async function openForNewDomain(trx: Transaction<BillingDb>, partnerId: string, d: { subscriptionId: string; domainId: string; productId: number; priceListId: number; createdAt: string }) {
  const priceId = await subscriptions.priceFor(trx, d.productId, d.priceListId);
  if (priceId === undefined) throw new Error(`no price for product ${d.productId} on price list ${d.priceListId}`);
  const row = await subscriptions.openSubscription(trx, { id: d.subscriptionId, partnerId, domainId: d.domainId, productId: d.productId, priceListId: d.priceListId, priceId, startDate: d.createdAt });
  if (row) await writeSubscriptionChanges(trx, [{ change: 'created', subscription: subscriptions.toState(row) }]);
}

/** Ends a deleted domain's subscriptions (INACTIVE, end_date now). */
export async function endForDeletedDomain(trx: Transaction<BillingDb>, partnerId: string, subscriptionIds: string[]) {
  const ended = await subscriptions.endSubscriptions(trx, partnerId, subscriptionIds);
  await writeSubscriptionChanges(trx, ended.map((row) => ({ change: 'ended', subscription: subscriptions.toState(row) })));
}

/**
 * Product changes for one partner, all or nothing: a subscription billing has not heard of yet
 * (its domain.created still on its way) is opened from the call; the same product and price list
 * again is not a change. Answers each subscription's state and version, for domains-svc's projection.
 */
export async function changeProducts(db: Kysely<BillingDb>, partnerId: string, changes: ProductChange[]) {
  return db.transaction().execute(async (trx) => {
    const existing = new Map((await subscriptions.findSubscriptionsForUpdate(trx, changes.map((c) => c.subscription_id))).map((r) => [r.id, r]));
    const foreign = changes.filter((c) => existing.has(c.subscription_id) && existing.get(c.subscription_id)!.partner_id !== partnerId);
    if (foreign.length > 0) throw validationError(foreign.map((c) => ({ path: 'body.changes', message: `subscription ${c.subscription_id} is not this partner's` })));

    const results: { subscription_id: string; changed: boolean; subscription: SubscriptionState; version?: number }[] = [];
    const events: { change: 'created' | 'product_changed'; subscription: SubscriptionState }[] = [];
    for (const c of changes) {
      let row = existing.get(c.subscription_id);
      if (!row) {
        const opened = await subscriptions.openSubscription(trx, { id: c.subscription_id, partnerId, domainId: c.domain_id, productId: c.product_id, priceListId: c.price_list_id, priceId: c.price_id, startDate: c.start_date });
        if (opened) {
          existing.set(opened.id, opened);
          events.push({ change: 'created', subscription: subscriptions.toState(opened) });
          results.push({ subscription_id: opened.id, changed: true, subscription: subscriptions.toState(opened) });
          continue;
        }
        // domain.created opened it meanwhile (the insert waited for that commit): change it as it is now.
        [row] = await subscriptions.findSubscriptionsForUpdate(trx, [c.subscription_id]);
        if (row.partner_id !== partnerId) throw validationError([{ path: 'body.changes', message: `subscription ${c.subscription_id} is not this partner's` }]);
      }
      if (row.product_id === c.product_id && row.price_list_id === c.price_list_id) {
        results.push({ subscription_id: row.id, changed: false, subscription: subscriptions.toState(row) });
        continue;
      }
      row = await subscriptions.changeProduct(trx, row.id, { productId: c.product_id, priceListId: c.price_list_id, priceId: c.price_id });
      existing.set(row.id, row);
      events.push({ change: 'product_changed', subscription: subscriptions.toState(row) });
      results.push({ subscription_id: row.id, changed: true, subscription: subscriptions.toState(row) });
    }
    await writeSubscriptionChanges(trx, events);
    const versions = await subscriptions.currentVersions(trx, results.map((r) => r.subscription_id));
    return results.map((r) => ({ ...r, version: versions.get(r.subscription_id) ?? 0 }));
  });
}

import type { SubscriptionProductChange } from '@platform/contracts';

/** A subscription's product and price list as it stands. */
interface ProductHolding {
  product_id: number;
  price_list_id: number;
}

interface WantedProduct {
  productId: number;
  priceListId: number;
  priceId: number;
}

/**
 * Which changes change something, taken in order so a subscription named twice ends with its last
 * change: the first change of a subscription this call just opened did (it opened with it); the
 * same product and price list as the subscription has by then is not a change. Answers a flag per
 * change and the product each changed subscription ends with.
 */
export function decideProductChanges(
  changes: SubscriptionProductChange[],
  current: ReadonlyMap<string, ProductHolding>,
  justOpened: ReadonlySet<string>,
) {
  const opened = new Set(justOpened);
  const wanted = new Map<string, WantedProduct>();
  const changed = changes.map((c) => {
    if (opened.delete(c.subscription_id)) return true;
    const holding = current.get(c.subscription_id)!;
    const now = wanted.get(c.subscription_id) ?? { productId: holding.product_id, priceListId: holding.price_list_id };
    if (now.productId === c.product_id && now.priceListId === c.price_list_id) return false;
    wanted.set(c.subscription_id, { productId: c.product_id, priceListId: c.price_list_id, priceId: c.price_id });
    return true;
  });
  return { changed, wanted };
}

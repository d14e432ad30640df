import type { SubscriptionProductChange } from '@platform/contracts';
import { decideProductChanges } from '../src/domain/product-changes';

const change = (subscription: string, productId: number, priceListId = 1): SubscriptionProductChange => ({
  subscription_id: subscription,
  domain_id: `domain-of-${subscription}`,
  product_id: productId,
  price_list_id: priceListId,
  price_id: productId * 100 + priceListId,
  start_date: '2026-01-01T00:00:00.000Z',
});
const holding = (productId: number, priceListId = 1) => ({ product_id: productId, price_list_id: priceListId });

describe('subscription product changes: which change something', () => {
  it('when a change names the product and price list the subscription has, then it is no change; another product or price list is', () => {
    const current = new Map([
      ['a', holding(1)],
      ['b', holding(1)],
      ['c', holding(1)],
    ]);
    const { changed, wanted } = decideProductChanges(
      [change('a', 1), change('b', 2), change('c', 1, 2)],
      current,
      new Set(),
    );
    expect(changed).toEqual([false, true, true]);
    expect([...wanted]).toEqual([
      ['b', { productId: 2, priceListId: 1, priceId: 201 }],
      ['c', { productId: 1, priceListId: 2, priceId: 102 }],
    ]);
  });

  it('when a subscription is named twice, then the second is compared with the first and the last one wins', () => {
    const current = new Map([['a', holding(1)]]);
    expect(decideProductChanges([change('a', 2), change('a', 2)], current, new Set()).changed).toEqual([true, false]);
    const { changed, wanted } = decideProductChanges([change('a', 2), change('a', 3)], current, new Set());
    expect(changed).toEqual([true, true]);
    expect(wanted.get('a')).toEqual({ productId: 3, priceListId: 1, priceId: 301 });
  });

  it('when the call just opened the subscription, then its first change counts as made (it opened with it) and is not applied again', () => {
    const current = new Map([['new', holding(2)]]);
    const justOpened = new Set(['new']);
    const { changed, wanted } = decideProductChanges(
      [change('new', 2), change('new', 2), change('new', 3)],
      current,
      justOpened,
    );
    expect(changed).toEqual([true, false, true]);
    expect([...wanted]).toEqual([['new', { productId: 3, priceListId: 1, priceId: 301 }]]);
    expect([...justOpened]).toEqual(['new']);
  });
});

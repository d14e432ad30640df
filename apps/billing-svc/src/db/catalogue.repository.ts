import type { Kysely } from '@platform/db';
import type { Product } from '@platform/contracts';
import type { BillingDb } from './tables';

/** Every product with its prices (each with currency and price list), in id order. */
export async function loadCatalogue(db: Kysely<BillingDb>): Promise<Product[]> {
  const [products, prices] = await Promise.all([
    db.selectFrom('products').selectAll().orderBy('id').execute(),
    db
      .selectFrom('prices as pr')
      .innerJoin('currencies as c', 'c.id', 'pr.currency_id')
      .innerJoin('price_lists as pl', 'pl.id', 'pr.price_list_id')
      .select([
        'pr.id',
        'pr.product_id',
        'pr.frequency',
        'pr.amount',
        'c.id as currency_id',
        'c.name as currency_name',
        'pl.id as list_id',
        'pl.code as list_code',
        'pl.type as list_type',
      ])
      .orderBy('pr.id')
      .execute(),
  ]);
  return products.map((p) => ({
    id: p.id,
    code: p.code,
    name: p.name,
    type: p.type,
    features: p.features,
    prices: prices
      .filter((pr) => pr.product_id === p.id)
      .map((pr) => ({
        id: pr.id,
        frequency: pr.frequency,
        currency: { id: pr.currency_id, name: pr.currency_name },
        price_amount: Number(pr.amount),
        price_list: { id: pr.list_id, code: pr.list_code, type: pr.list_type },
      })),
  }));
}

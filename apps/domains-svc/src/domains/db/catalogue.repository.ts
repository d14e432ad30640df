import { productSchema, type Product } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { z } from 'zod';
import type { DomainsDb } from '../../db/tables';

/** The catalogue billing-svc served last (undefined before the first fetch). */
export async function loadCatalogueSnapshot(db: Kysely<DomainsDb>): Promise<Product[] | undefined> {
  const row = await db.selectFrom('catalogue_snapshot').select('products').where('id', '=', 1).executeTakeFirst();
  return row ? z.array(productSchema).parse(row.products) : undefined;
}

export async function saveCatalogueSnapshot(db: Kysely<DomainsDb>, products: Product[]): Promise<void> {
  const json = JSON.stringify(products);
  await db
    .insertInto('catalogue_snapshot')
    .values({ id: 1, products: json })
    .onConflict((oc) => oc.column('id').doUpdateSet({ products: json, fetched_at: new Date() }))
    .execute();
}

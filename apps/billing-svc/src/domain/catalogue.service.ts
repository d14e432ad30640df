import type { Product } from '@platform/contracts';
import { notFound } from '@platform/http';

/** Where the catalogue comes from (the database, read through a short cache). */
export interface CatalogueSource {
  products(): Promise<Product[]>;
}

/** A product by its numeric id or its code (codes are matched exactly, ids as whole numbers only). */
export async function findProduct(source: CatalogueSource, idOrCode: string): Promise<Product> {
  const products = await source.products();
  const byId = /^\d{1,9}$/.test(idOrCode) ? products.find((p) => p.id === Number(idOrCode)) : undefined;
  const product = byId ?? products.find((p) => p.code === idOrCode);
  if (!product) throw notFound('product');
  return product;
}

/** The catalogue read at most once per `ttlMs` (it changes by migration, not per request). */
export function cachedCatalogue(load: () => Promise<Product[]>, ttlMs: number): CatalogueSource {
  let cached: { at: number; value: Promise<Product[]> } | undefined;
  return {
    products() {
      if (!cached || Date.now() - cached.at > ttlMs) {
        const value = load();
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
  };
}

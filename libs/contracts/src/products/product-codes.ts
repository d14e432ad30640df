import type { Price, PriceList, Product } from './product.schema';

export type CatalogueResolution =
  | { ok: true; product: Product; priceList: PriceList; price: Price }
  | { ok: false; field: 'product' | 'price_list'; message: string };

/**
 * Resolves the product and price list codes of a request against billing-svc's catalogue. No
 * product: the catalogue's first (billing lists its entry product first). No price list: the
 * product's first price. A price list must be one the product is sold under.
 */
export function resolveProductCodes(
  productCode: string | undefined,
  priceListCode: string | undefined,
  catalogue: readonly Product[],
): CatalogueResolution {
  const product = productCode === undefined ? catalogue[0] : catalogue.find((p) => p.code === productCode);
  if (!product)
    return {
      ok: false,
      field: 'product',
      message: productCode === undefined ? 'the product catalogue is empty' : `unknown product code "${productCode}"`,
    };
  const match =
    priceListCode === undefined ? product.prices[0] : product.prices.find((p) => p.price_list.code === priceListCode);
  if (!match) {
    const exists = catalogue.some((p) => p.prices.some((pr) => pr.price_list.code === priceListCode));
    const message = exists
      ? `price list "${priceListCode}" is not offered for product "${product.code}"`
      : `unknown price list code "${priceListCode}"`;
    return { ok: false, field: 'price_list', message };
  }
  return { ok: true, product, priceList: match.price_list, price: match };
}

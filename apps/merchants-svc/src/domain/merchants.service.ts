import { isUuid, merchantMetaFilters, resolveProductCodes, type CreateMerchantBody, type ListMerchantsQuery, type UpdateMerchantBody } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { listPage, notFound, validationError } from '@platform/http';
import { deleteLinksOfMerchant } from '../db/domain-links.repository';
import * as merchants from '../db/merchants.repository';
import type { MerchantsDb } from '../db/tables';
import type { CataloguePort } from './context';

/** The partner's merchant with its domain, or 404 (another partner's id, a deleted one, or not an id at all). */
export async function getMerchant(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  const row = isUuid(id) ? await merchants.findMerchantView(db, partnerId, id.toLowerCase()) : undefined;
  if (!row) throw notFound('merchant');
  return row;
}

export async function listMerchants(db: Kysely<MerchantsDb>, partnerId: string, query: ListMerchantsQuery) {
  const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));
  const filters: merchants.MerchantFilters = {
    search: query.search,
    isRegistered: query.is_registered,
    merchantId: query.merchant_id,
    createdFrom: date(query.created_at_start),
    createdTo: date(query.created_at_end),
    meta: merchantMetaFilters(query),
  };
  return listPage(query, (window) => merchants.listMerchantViews(db, partnerId, filters, window));
}

/** Creates the merchant, or 409 MERCHANT.ALREADY_EXISTS naming the partner's merchant with that merchant_id. */
export async function createMerchant(db: Kysely<MerchantsDb>, catalogue: CataloguePort, partnerId: string, body: CreateMerchantBody) {
  await assertKnownDefaults(catalogue, body);
  const id = await merchants.insertMerchant(db, {
    partnerId,
    merchantId: body.merchant_id,
    companyName: body.company_name ?? null,
    description: body.description ?? null,
    meta: body.meta ?? {},
    defaultProduct: body.default_product ?? null,
    defaultPriceList: body.default_price_list ?? null,
  });
  return getMerchant(db, partnerId, id);
}

/**
 * A default product or price list sent must be in billing-svc's catalogue, as on a domain create
 * (the same resolver): a product by its code, a price list one that product is sold under (or,
 * sent alone, one the catalogue has). 400 naming the field otherwise; null clears and is not checked.
 */
async function assertKnownDefaults(catalogue: CataloguePort, body: Pick<UpdateMerchantBody, 'default_product' | 'default_price_list'>) {
  const product = body.default_product ?? undefined;
  const priceList = body.default_price_list ?? undefined;
  if (product === undefined && priceList === undefined) return;
  const products = await catalogue.products();
  if (product !== undefined) {
    const resolved = resolveProductCodes(product, priceList, products);
    if (!resolved.ok) throw validationError([{ path: `body.default_${resolved.field}`, message: resolved.message }]);
  } else if (!products.some((p) => p.prices.some((price) => price.price_list.code === priceList))) {
    throw validationError([{ path: 'body.default_price_list', message: `unknown price list code "${priceList}"` }]);
  }
}

/** Changes only the fields sent; a merchant_id another of the partner's merchants has is a 409. */
export async function updateMerchant(db: Kysely<MerchantsDb>, catalogue: CataloguePort, partnerId: string, id: string, body: UpdateMerchantBody) {
  const current = await getMerchant(db, partnerId, id);
  await assertKnownDefaults(catalogue, body);
  const { meta, ...fields } = body;
  const updated = await merchants.updateMerchant(db, partnerId, current.id, { ...fields, ...(meta !== undefined ? { meta: JSON.stringify(meta) } : {}) });
  if (!updated) throw notFound('merchant');
  return getMerchant(db, partnerId, current.id);
}

/** Deletes the merchant and its links; the domains that name it keep its merchant_id. */
export async function deleteMerchant(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  const current = await getMerchant(db, partnerId, id);
  await inTransaction(db, async (trx) => {
    const merchantId = await merchants.deleteMerchant(trx, partnerId, current.id);
    if (merchantId === undefined) throw notFound('merchant');
    await deleteLinksOfMerchant(trx, partnerId, merchantId);
  });
}

/** What domains-svc needs to create a domain for this merchant_id. */
export async function getMerchantDefaults(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  const row = await merchants.findByMerchantId(db, partnerId, merchantId);
  if (!row) throw notFound('merchant');
  return row;
}

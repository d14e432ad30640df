import {
  isUuid,
  merchantMetaFilters,
  NEW_MERCHANT_ID_MAX,
  resolveProductCodes,
  type CreateMerchantBody,
  type ListMerchantsQuery,
  type UpdateMerchantBody,
} from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { listPage, notFound, validationError } from '@platform/http';
import { clearLinksOfMerchant } from '../db/domain-links.repository';
import * as merchants from '../db/merchants.repository';
import type { MerchantsDb } from '../db/tables';
import { writeMerchantDeleted, writeMerchantsChanged } from '../events/merchant-events.writer';
import type { CataloguePort, MerchantsContext } from './context';

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
export async function createMerchant(
  db: Kysely<MerchantsDb>,
  catalogue: CataloguePort,
  partnerId: string,
  body: CreateMerchantBody,
) {
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
async function assertKnownDefaults(
  catalogue: CataloguePort,
  body: Pick<UpdateMerchantBody, 'default_product' | 'default_price_list'>,
) {
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

/**
 * Changes only the fields sent; a merchant_id another of the partner's merchants has is a 409, a
 * new one longer than the spec's 32 characters a 400 (an unchanged one stays, whatever its
 * length: a domain create may have made it). A rename writes merchant.changed with the change and
 * hands it to domains-svc once it commits, before answering, so the merchant's domains show the
 * new merchant_id on the partner's next request. Answers the merchant as changed.
 */
export async function updateMerchant(
  ctx: Pick<MerchantsContext, 'db' | 'catalogue' | 'domains'>,
  partnerId: string,
  id: string,
  body: UpdateMerchantBody,
) {
  const current = await getMerchant(ctx.db, partnerId, id);
  await assertKnownDefaults(ctx.catalogue, body);
  const { meta, ...fields } = body;
  const renamed = body.merchant_id !== undefined && body.merchant_id !== current.merchant_id;
  if (renamed) assertNewMerchantId(body.merchant_id!);
  await inTransaction(ctx.db, async (trx) => {
    const updated = await merchants.updateMerchant(trx, partnerId, current.id, {
      ...fields,
      ...(meta !== undefined ? { meta: JSON.stringify(meta) } : {}),
    });
    if (!updated) throw notFound('merchant');
    if (renamed) await ctx.domains.pushOnCommit(trx, await writeMerchantsChanged(trx, [current.id]));
  }).catch((err: unknown) => merchants.rethrowMerchantIdTaken(ctx.db, partnerId, body.merchant_id, err));
  return getMerchant(ctx.db, partnerId, current.id);
}

/** The spec's bound on a merchant_id the merchants API gives (the schema lets an unchanged longer one through). */
function assertNewMerchantId(merchantId: string) {
  if (merchantId.length > NEW_MERCHANT_ID_MAX)
    throw validationError([
      { path: 'body.merchant_id', message: `must be at most ${NEW_MERCHANT_ID_MAX} characters for a new merchant_id` },
    ]);
}

/**
 * Deletes the merchant and its links: merchant.changed (deleted, with the links it had) tells
 * domains-svc, handed over once it commits, before answering, so no domain shows its merchant_id any more; a
 * merchant made later with the same merchant_id starts unlinked.
 */
export async function deleteMerchant(ctx: Pick<MerchantsContext, 'db' | 'domains'>, partnerId: string, id: string) {
  const current = await getMerchant(ctx.db, partnerId, id);
  await inTransaction(ctx.db, async (trx) => {
    const merchantId = await merchants.deleteMerchant(trx, partnerId, current.id);
    if (merchantId === undefined) throw notFound('merchant');
    const links = await clearLinksOfMerchant(trx, partnerId, current.id);
    const messages = await writeMerchantDeleted(trx, partnerId, { id: current.id, merchant_id: merchantId, links });
    await ctx.domains.pushOnCommit(trx, messages);
  });
}

/** What domains-svc needs to create a domain for this merchant_id. */
export async function getMerchantDefaults(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  const row = await merchants.findByMerchantId(db, partnerId, merchantId);
  if (!row) throw notFound('merchant');
  return row;
}

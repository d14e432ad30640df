import type { Updateable } from 'kysely';
import { isUniqueViolation, sql, type Kysely } from '@platform/db';
import { AppError } from '@platform/http';
import type { MerchantsDb, MerchantsTable } from './tables';

/** A merchant with its newest domain link (the link columns are null when no domain names it). */
export type MerchantViewRow = NonNullable<Awaited<ReturnType<typeof findMerchantView>>>;

export interface MerchantFilters {
  search?: string;
  isRegistered?: boolean;
  merchantId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  /** Pairs meta must contain, every one. */
  meta: Record<string, string>;
}

/** Merchants joined to the link of the domain that named them last. */
const merchantViews = (db: Kysely<MerchantsDb>) =>
  db
    .selectFrom('merchants as m')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('domain_links as l')
          .select(['l.domain_id', 'l.hostname', 'l.status', 'l.is_active', 'l.email', 'l.source', 'l.domain_created_at'])
          .whereRef('l.partner_id', '=', 'm.partner_id')
          .whereRef('l.merchant_id', '=', 'm.merchant_id')
          .orderBy('l.linked_at', 'desc')
          .orderBy('l.domain_id', 'desc')
          .limit(1)
          .as('l'),
      (join) => join.onTrue(),
    )
    .selectAll('m')
    .select(['l.domain_id', 'l.hostname', 'l.status', 'l.is_active', 'l.email', 'l.source', 'l.domain_created_at']);

/** The earliest link of a merchant_id: its registered_at when a merchant takes that id. */
const firstLinkedAt = (partnerId: string, merchantId: string) =>
  sql<Date | null>`(SELECT min(linked_at) FROM domain_links WHERE partner_id = ${partnerId} AND merchant_id = ${merchantId})`;

export async function findMerchantView(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  return merchantViews(db).where('m.partner_id', '=', partnerId).where('m.id', '=', id).executeTakeFirst();
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page (limit + 1 rows, to know whether another exists), newest first. */
export async function listMerchantViews(db: Kysely<MerchantsDb>, partnerId: string, f: MerchantFilters, window: { offset: number; limitPlusOne: number }) {
  let q = merchantViews(db).where('m.partner_id', '=', partnerId);
  if (f.search !== undefined) {
    const like = `%${likeEscape(f.search)}%`;
    q = q.where((eb) => eb.or([eb('m.merchant_id', 'ilike', like), eb('m.company_name', 'ilike', like), eb('m.description', 'ilike', like)]));
  }
  if (f.isRegistered !== undefined) {
    q = q.where(sql<boolean>`EXISTS (SELECT 1 FROM domain_links x WHERE x.partner_id = m.partner_id AND x.merchant_id = m.merchant_id) = ${f.isRegistered}`);
  }
  if (f.merchantId !== undefined) q = q.where('m.merchant_id', '=', f.merchantId);
  if (f.createdFrom !== undefined) q = q.where('m.created_at', '>=', f.createdFrom);
  if (f.createdTo !== undefined) q = q.where('m.created_at', '<=', f.createdTo);
  // Containment is served by the GIN index on meta.
  if (Object.keys(f.meta).length > 0) q = q.where(sql<boolean>`m.meta @> ${JSON.stringify(f.meta)}::jsonb`);
  return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').offset(window.offset).limit(window.limitPlusOne).execute();
}

interface NewMerchant {
  partnerId: string;
  merchantId: string;
  companyName: string | null;
  description: string | null;
  meta: Record<string, string>;
  defaultProduct: string | null;
  defaultPriceList: string | null;
}

/** Inserts the merchant and answers its id; 409 MERCHANT.ALREADY_EXISTS when the partner already has one with its merchant_id. */
export async function insertMerchant(db: Kysely<MerchantsDb>, m: NewMerchant): Promise<string> {
  const row = await db
    .insertInto('merchants')
    .values({
      partner_id: m.partnerId,
      merchant_id: m.merchantId,
      company_name: m.companyName,
      description: m.description,
      meta: JSON.stringify(m.meta),
      default_product: m.defaultProduct,
      default_price_list: m.defaultPriceList,
      registered_at: firstLinkedAt(m.partnerId, m.merchantId),
    })
    .onConflict((oc) => oc.constraint('merchants_partner_merchant_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw await merchantIdTaken(db, m.partnerId, m.merchantId);
  return row.id;
}

/** The partner's merchant with this merchant_id (the partner's own id). */
export async function findByMerchantId(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  return db.selectFrom('merchants').select(['id', 'merchant_id', 'default_product', 'default_price_list']).where('partner_id', '=', partnerId).where('merchant_id', '=', merchantId).executeTakeFirst();
}

/**
 * Changes the merchant; a new merchant_id a domain already names makes it registered since that
 * link, and one another of the partner's merchants has is 409 MERCHANT.ALREADY_EXISTS.
 */
export async function updateMerchant(db: Kysely<MerchantsDb>, partnerId: string, id: string, changes: Omit<Updateable<MerchantsTable>, 'id' | 'partner_id' | 'registered_at'>) {
  try {
    return await db
      .updateTable('merchants')
      .set({
        ...changes,
        ...(changes.merchant_id !== undefined ? { registered_at: sql<Date | null>`coalesce(registered_at, ${firstLinkedAt(partnerId, changes.merchant_id)})` } : {}),
        updated_at: sql<Date>`now()`,
      })
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
  } catch (err) {
    if (isUniqueViolation(err, 'merchants_partner_merchant_key') && changes.merchant_id !== undefined) throw await merchantIdTaken(db, partnerId, changes.merchant_id);
    throw err;
  }
}

/** 409 MERCHANT.ALREADY_EXISTS naming the partner's merchant that has this merchant_id. */
async function merchantIdTaken(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  const existing = await findByMerchantId(db, partnerId, merchantId);
  return new AppError('MERCHANT.ALREADY_EXISTS', 'This partner already has a merchant with this merchant_id.', existing ? { id: existing.id } : undefined);
}

/** Deletes the merchant; answers its merchant_id, or undefined when it did not exist. */
export async function deleteMerchant(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  const row = await db.deleteFrom('merchants').where('partner_id', '=', partnerId).where('id', '=', id).returning('merchant_id').executeTakeFirst();
  return row?.merchant_id;
}

/**
 * The merchants a domain names: each one the partner does not have yet is created (no company,
 * registered since the link), and each one not registered yet becomes registered.
 */
export async function ensureRegisteredMerchants(db: Kysely<MerchantsDb>, partnerId: string, merchantIds: string[], linkedAt: string) {
  if (merchantIds.length === 0) return;
  await sql`
    INSERT INTO merchants (partner_id, merchant_id, registered_at)
    SELECT ${partnerId}, unnest(${merchantIds}::text[]), ${linkedAt}
    ON CONFLICT ON CONSTRAINT merchants_partner_merchant_key DO NOTHING`.execute(db);
  await db
    .updateTable('merchants')
    .set({ registered_at: linkedAt })
    .where('partner_id', '=', partnerId)
    .where('merchant_id', 'in', merchantIds)
    .where('registered_at', 'is', null)
    .execute();
}

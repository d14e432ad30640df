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

/** Merchants joined to the link of the domain linked to them last. */
const merchantViews = (db: Kysely<MerchantsDb>) =>
  db
    .selectFrom('merchants as m')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('domain_links as l')
          .select([
            'l.domain_id',
            'l.hostname',
            'l.status',
            'l.is_active',
            'l.email',
            'l.source',
            'l.domain_created_at',
          ])
          .whereRef('l.merchant_ref', '=', 'm.id')
          .orderBy('l.linked_at', 'desc')
          .orderBy('l.domain_id', 'desc')
          .limit(1)
          .as('l'),
      (join) => join.onTrue(),
    )
    .selectAll('m')
    .select(['l.domain_id', 'l.hostname', 'l.status', 'l.is_active', 'l.email', 'l.source', 'l.domain_created_at']);

export async function findMerchantView(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  return merchantViews(db).where('m.partner_id', '=', partnerId).where('m.id', '=', id).executeTakeFirst();
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page (limit + 1 rows, to know whether another exists), newest first. */
export async function listMerchantViews(
  db: Kysely<MerchantsDb>,
  partnerId: string,
  f: MerchantFilters,
  window: { offset: number; limitPlusOne: number },
) {
  let q = merchantViews(db).where('m.partner_id', '=', partnerId);
  if (f.search !== undefined) {
    const like = `%${likeEscape(f.search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('m.merchant_id', 'ilike', like),
        eb('m.company_name', 'ilike', like),
        eb('m.description', 'ilike', like),
      ]),
    );
  }
  if (f.isRegistered !== undefined) {
    q = q.where(sql<boolean>`EXISTS (SELECT 1 FROM domain_links x WHERE x.merchant_ref = m.id) = ${f.isRegistered}`);
  }
  if (f.merchantId !== undefined) q = q.where('m.merchant_id', '=', f.merchantId);
  if (f.createdFrom !== undefined) q = q.where('m.created_at', '>=', f.createdFrom);
  if (f.createdTo !== undefined) q = q.where('m.created_at', '<=', f.createdTo);
  // Containment is served by the GIN index on meta.
  if (Object.keys(f.meta).length > 0) q = q.where(sql<boolean>`m.meta @> ${JSON.stringify(f.meta)}::jsonb`);
  return q
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .offset(window.offset)
    .limit(window.limitPlusOne)
    .execute();
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
    })
    .onConflict((oc) => oc.constraint('merchants_partner_merchant_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw await merchantIdTaken(db, m.partnerId, m.merchantId);
  return row.id;
}

/** The partner's merchant with this merchant_id (the partner's own id). */
export async function findByMerchantId(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  return db
    .selectFrom('merchants')
    .select(['id', 'merchant_id', 'default_product', 'default_price_list'])
    .where('partner_id', '=', partnerId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

/**
 * Changes the merchant (its links stay: they are to the merchant). A merchant_id another of the
 * partner's merchants has fails with the unique violation (see rethrowMerchantIdTaken).
 */
export async function updateMerchant(
  db: Kysely<MerchantsDb>,
  partnerId: string,
  id: string,
  changes: Omit<Updateable<MerchantsTable>, 'id' | 'partner_id' | 'registered_at'>,
) {
  return db
    .updateTable('merchants')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/** After the transaction (the violation aborted it): 409 MERCHANT.ALREADY_EXISTS for a taken merchant_id, else the error as it was. */
export async function rethrowMerchantIdTaken(
  db: Kysely<MerchantsDb>,
  partnerId: string,
  merchantId: string | undefined,
  err: unknown,
): Promise<never> {
  if (merchantId !== undefined && isUniqueViolation(err, 'merchants_partner_merchant_key'))
    throw await merchantIdTaken(db, partnerId, merchantId);
  throw err;
}

/** 409 MERCHANT.ALREADY_EXISTS naming the partner's merchant that has this merchant_id. */
async function merchantIdTaken(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  const existing = await findByMerchantId(db, partnerId, merchantId);
  return new AppError(
    'MERCHANT.ALREADY_EXISTS',
    'This partner already has a merchant with this merchant_id.',
    existing ? { id: existing.id } : undefined,
  );
}

/** Deletes the merchant; answers its merchant_id, or undefined when it did not exist. */
export async function deleteMerchant(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  const row = await db
    .deleteFrom('merchants')
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .returning('merchant_id')
    .executeTakeFirst();
  return row?.merchant_id;
}

/** The partner's merchant with this merchant_id, created (registered since the link) when it has none; answers its id. */
export async function ensureMerchant(
  db: Kysely<MerchantsDb>,
  partnerId: string,
  merchantId: string,
  linkedAt: string,
): Promise<string> {
  await sql`
    INSERT INTO merchants (partner_id, merchant_id, registered_at) VALUES (${partnerId}, ${merchantId}, ${linkedAt})
    ON CONFLICT ON CONSTRAINT merchants_partner_merchant_key DO NOTHING`.execute(db);
  const row = await findByMerchantId(db, partnerId, merchantId);
  // Deleted between the two statements by a concurrent call: failing, the event is handled again later (a retry).
  if (!row) throw new Error(`merchant ${merchantId} vanished while being linked`);
  return row.id;
}

/** True when the partner has a merchant with this id (a deleted one is gone). */
export async function merchantExists(db: Kysely<MerchantsDb>, partnerId: string, id: string) {
  return (
    (await db
      .selectFrom('merchants')
      .select('id')
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .executeTakeFirst()) !== undefined
  );
}

/** Merchants linked now and not registered yet become registered since the link. */
export async function markRegistered(db: Kysely<MerchantsDb>, merchantRefs: string[], linkedAt: string) {
  if (merchantRefs.length === 0) return;
  await db
    .updateTable('merchants')
    .set({ registered_at: linkedAt })
    .where('id', 'in', merchantRefs)
    .where('registered_at', 'is', null)
    .execute();
}

/** The merchant's identity as merchant.changed carries it. */
export async function findMerchantIdentity(db: Kysely<MerchantsDb>, id: string) {
  return db.selectFrom('merchants').select(['id', 'partner_id', 'merchant_id']).where('id', '=', id).executeTakeFirst();
}

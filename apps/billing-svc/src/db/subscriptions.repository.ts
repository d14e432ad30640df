import type { Selectable } from 'kysely';
import type { SubscriptionState } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import { SCHEMA, type BillingDb, type SubscriptionsTable } from './tables';

type SubscriptionRow = Selectable<SubscriptionsTable>;

export const toState = (row: SubscriptionRow): SubscriptionState => ({
  id: row.id,
  partner_id: row.partner_id,
  domain_id: row.domain_id,
  status: row.status as SubscriptionState['status'],
  product_id: row.product_id,
  price_list_id: row.price_list_id,
  price_id: row.price_id,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The price a subscription to this product on this price list gets (the lowest id: the catalogue's first). */
export async function priceFor(
  db: Kysely<BillingDb>,
  productId: number,
  priceListId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('prices')
    .select('id')
    .where('product_id', '=', productId)
    .where('price_list_id', '=', priceListId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** PostgreSQL's order of uuids: their bytes, which is the order of their lower-case text. */
const byId = (a: { id: string }, b: { id: string }) => {
  const [x, y] = [a.id.toLowerCase(), b.id.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

interface NewSubscription {
  id: string;
  partnerId: string;
  domainId: string;
  productId: number;
  priceListId: number;
  priceId: number;
  startDate: string;
}

/**
 * Opens subscriptions unless they exist (events and calls may both bring one); returns those this
 * call created. Inserted in id order, so two batches opening the same ids wait rather than deadlock.
 */
export async function openSubscriptions(
  db: Kysely<BillingDb>,
  subscriptions: NewSubscription[],
): Promise<SubscriptionRow[]> {
  if (subscriptions.length === 0) return [];
  return db
    .insertInto('subscriptions')
    .values(
      [...subscriptions].sort(byId).map((s) => ({
        id: s.id,
        partner_id: s.partnerId,
        domain_id: s.domainId,
        status: 'ACTIVE',
        product_id: s.productId,
        price_list_id: s.priceListId,
        price_id: s.priceId,
        start_date: s.startDate,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .returningAll()
    .execute();
}

/**
 * Locks the subscriptions in id order (PostgreSQL locks rows as the sorted result is produced), the
 * one order every writer of subscriptions uses: overlapping batches then wait for each other
 * instead of deadlocking.
 */
export async function findSubscriptionsForUpdate(db: Kysely<BillingDb>, ids: string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('subscriptions').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Sets product, price list and price of many subscriptions in one statement; returns them as they are now. */
export async function changeProducts(
  db: Kysely<BillingDb>,
  changes: { id: string; productId: number; priceListId: number; priceId: number }[],
): Promise<SubscriptionRow[]> {
  if (changes.length === 0) return [];
  const { rows } = await sql<SubscriptionRow>`
    UPDATE subscriptions s
       SET product_id = v.product_id, price_list_id = v.price_list_id, price_id = v.price_id, updated_at = now()
      FROM UNNEST(${changes.map((c) => c.id)}::uuid[], ${changes.map((c) => c.productId)}::int[], ${changes.map((c) => c.priceListId)}::int[], ${changes.map((c) => c.priceId)}::int[])
           AS v(id, product_id, price_list_id, price_id)
     WHERE s.id = v.id
    RETURNING s.*`.execute(db);
  return rows;
}

/** Ends the subscriptions still running among these; returns the ones it ended. */
export async function endSubscriptions(
  db: Kysely<BillingDb>,
  partnerId: string,
  ids: string[],
): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .updateTable('subscriptions')
    .set({ status: 'INACTIVE', end_date: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('partner_id', '=', partnerId)
    .where('id', 'in', ids)
    .where('status', '<>', 'INACTIVE')
    .returningAll()
    .execute();
}

/** The current version of each aggregate (0 when it has none yet). */
export async function currentVersions(db: Kysely<BillingDb>, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ aggregate_id: string; version: string }>`
    SELECT aggregate_id, version FROM ${sql.id(SCHEMA, 'aggregate_versions')} WHERE aggregate_id IN (${sql.join(ids)})`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.aggregate_id, Number(r.version)]));
}

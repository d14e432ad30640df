import type { Kysely } from 'kysely';
import { sql } from '@platform/db';
import type { DomainsDb } from '../../db/tables';

/** The partner's domains among these ids, with what a product change needs (others, and unknown ids, are left out). */
export async function findSubscriptionsOfDomains(db: Kysely<DomainsDb>, partnerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('domains')
    .select(['id', 'subscription_id', 'product_id', 'price_list_id', 'created_at'])
    .where('partner_id', '=', partnerId)
    .where('id', 'in', ids)
    .execute();
}

/** The domain's copy of its subscription, as billing-svc reported it (only the domain holding that subscription). */
type SubscriptionCopy = {
  id: string;
  domain_id: string;
  product_id: number;
  price_list_id: number;
  price_id: number;
  status: string;
  start_date: string;
  end_date: string | null;
};

/** The domains' copies of their subscriptions, as billing-svc reported them (one statement for a batch). */
export async function applySubscriptionStates(db: Kysely<DomainsDb>, states: SubscriptionCopy[]) {
  if (states.length === 0) return;
  const col = <K extends keyof SubscriptionCopy>(k: K) => states.map((s) => s[k]);
  await sql`
    UPDATE domains d
       SET product_id = v.product_id, price_list_id = v.price_list_id, price_id = v.price_id,
           subscription_status = v.status, subscription_start = v.start_date, subscription_end = v.end_date
      FROM UNNEST(${col('domain_id')}::uuid[], ${col('id')}::uuid[], ${col('product_id')}::int[], ${col('price_list_id')}::int[], ${col('price_id')}::int[],
                  ${col('status')}::text[], ${col('start_date')}::timestamptz[], ${col('end_date')}::timestamptz[])
           AS v(domain_id, id, product_id, price_list_id, price_id, status, start_date, end_date)
     WHERE d.id = v.domain_id AND d.subscription_id = v.id`.execute(db);
}

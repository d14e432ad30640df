import type { MerchantState } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { DomainsDb } from '../../db/tables';

/**
 * The partner's links a merchant.changed is about: those to the merchant (by its id), and those
 * not resolved yet that its links name (domain and the merchant_id the domain named).
 */
const linksOf = (partnerId: string, merchant: MerchantState) => sql<boolean>`
  partner_id = ${partnerId} AND (merchant_ref = ${merchant.id}::uuid OR (merchant_ref IS NULL AND (domain_id, merchant_id) IN (
    SELECT * FROM UNNEST(${merchant.links.map((l) => l.domain_id)}::uuid[], ${merchant.links.map((l) => l.requested_as)}::text[]))))`;

/**
 * A live merchant: its links carry its id and show its merchant_id now. Answers the domains whose
 * merchant_id changed (a rename); links only resolved (the id learnt, the same merchant_id) are not among them.
 */
export async function resolveMerchantLinks(
  db: Kysely<DomainsDb>,
  partnerId: string,
  merchant: MerchantState,
): Promise<string[]> {
  const { rows } = await sql<{ domain_id: string }>`
    UPDATE domain_merchants SET merchant_ref = ${merchant.id}::uuid, merchant_id = ${merchant.merchant_id}
    WHERE ${linksOf(partnerId, merchant)} AND merchant_id <> ${merchant.merchant_id}
    RETURNING domain_id`.execute(db);
  await sql`UPDATE domain_merchants SET merchant_ref = ${merchant.id}::uuid WHERE ${linksOf(partnerId, merchant)} AND merchant_ref IS NULL`.execute(
    db,
  );
  return rows.map((r) => r.domain_id);
}

/** A deleted merchant: its links go. Answers the domains that lost one. */
export async function deleteMerchantLinks(
  db: Kysely<DomainsDb>,
  partnerId: string,
  merchant: MerchantState,
): Promise<string[]> {
  const { rows } = await sql<{
    domain_id: string;
  }>`DELETE FROM domain_merchants WHERE ${linksOf(partnerId, merchant)} RETURNING domain_id`.execute(db);
  return rows.map((r) => r.domain_id);
}

/** The domains' `merchants` (what a read shows and the projected state carries) from their links. */
export async function refreshDomainMerchants(db: Kysely<DomainsDb>, partnerId: string, domainIds: string[]) {
  if (domainIds.length === 0) return;
  await sql`
    UPDATE domains d SET merchants = ARRAY(SELECT m.merchant_id FROM domain_merchants m WHERE m.domain_id = d.id ORDER BY m.merchant_id)
    WHERE d.partner_id = ${partnerId} AND d.id = ANY(${domainIds}::uuid[])`.execute(db);
}

import { sql, type Kysely } from '@platform/db';
import type { MerchantsDb } from './tables';

interface DomainLink {
  domainId: string;
  partnerId: string;
  hostname: string;
  status: string;
  isActive: boolean;
  email: string;
  source: string;
  domainCreatedAt: string;
}

/** A link to make or keep: the merchant (its id) and the merchant_id the domain named it by. */
export interface LinkTarget {
  merchantRef: string;
  requestedAs: string;
}

/**
 * Links the domain to each merchant with its current state; an existing link keeps its linked_at
 * and requested_as. Answers the merchants newly linked.
 */
export async function upsertLinks(
  db: Kysely<MerchantsDb>,
  link: DomainLink,
  targets: LinkTarget[],
  linkedAt: string,
): Promise<string[]> {
  if (targets.length === 0) return [];
  const rows = await db
    .insertInto('domain_links')
    .values(
      targets.map((t) => ({
        domain_id: link.domainId,
        partner_id: link.partnerId,
        merchant_ref: t.merchantRef,
        requested_as: t.requestedAs,
        hostname: link.hostname,
        status: link.status,
        is_active: link.isActive,
        email: link.email,
        source: link.source,
        domain_created_at: link.domainCreatedAt,
        linked_at: linkedAt,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['domain_id', 'merchant_ref']).doUpdateSet((eb) => ({
        hostname: eb.ref('excluded.hostname'),
        status: eb.ref('excluded.status'),
        is_active: eb.ref('excluded.is_active'),
        email: eb.ref('excluded.email'),
        source: eb.ref('excluded.source'),
        domain_created_at: eb.ref('excluded.domain_created_at'),
      })),
    )
    .returning(['merchant_ref', sql<boolean>`xmax = 0`.as('inserted')])
    .execute();
  return rows.filter((r) => r.inserted).map((r) => r.merchant_ref);
}

/** The merchant a domain's link made under this merchant_id goes to, if one was made. */
export async function findLinkRequestedAs(db: Kysely<MerchantsDb>, domainId: string, requestedAs: string) {
  const row = await db
    .selectFrom('domain_links')
    .select('merchant_ref')
    .where('domain_id', '=', domainId)
    .where('requested_as', '=', requestedAs)
    .executeTakeFirst();
  return row?.merchant_ref;
}

/** True when a merchant's delete cleared the domain's link made under this merchant_id. */
export async function wasCleared(db: Kysely<MerchantsDb>, domainId: string, requestedAs: string) {
  return (
    (await db
      .selectFrom('cleared_links')
      .select('domain_id')
      .where('domain_id', '=', domainId)
      .where('requested_as', '=', requestedAs)
      .executeTakeFirst()) !== undefined
  );
}

/**
 * Removes each domain's links except to the merchants it keeps (all of them when none are kept),
 * in one statement. Answers the merchants that lost a link.
 */
export async function deleteLinksOfDomains(
  db: Kysely<MerchantsDb>,
  domains: { partnerId: string; domainId: string; keep: string[] }[],
): Promise<string[]> {
  if (domains.length === 0) return [];
  const kept = domains.flatMap((d) => d.keep.map((merchantRef) => ({ domainId: d.domainId, merchantRef })));
  const { rows } = await sql<{ merchant_ref: string }>`
    DELETE FROM domain_links l
    USING UNNEST(${domains.map((d) => d.partnerId)}::text[], ${domains.map((d) => d.domainId)}::uuid[]) AS t(partner_id, domain_id)
    WHERE l.partner_id = t.partner_id AND l.domain_id = t.domain_id
      AND NOT EXISTS (
        SELECT 1 FROM UNNEST(${kept.map((k) => k.domainId)}::uuid[], ${kept.map((k) => k.merchantRef)}::uuid[]) AS k(domain_id, merchant_ref)
        WHERE k.domain_id = l.domain_id AND k.merchant_ref = l.merchant_ref)
    RETURNING l.merchant_ref`.execute(db);
  return rows.map((r) => r.merchant_ref);
}

/** Removes the merchant's links and remembers them as cleared; answers them. */
export async function clearLinksOfMerchant(db: Kysely<MerchantsDb>, partnerId: string, merchantRef: string) {
  const { rows } = await sql<{ domain_id: string; requested_as: string }>`
    WITH gone AS (DELETE FROM domain_links WHERE partner_id = ${partnerId} AND merchant_ref = ${merchantRef}::uuid RETURNING domain_id, requested_as),
    remembered AS (
      INSERT INTO cleared_links (domain_id, requested_as, partner_id) SELECT domain_id, requested_as, ${partnerId} FROM gone
      ON CONFLICT (domain_id, requested_as) DO NOTHING
    )
    SELECT domain_id, requested_as FROM gone ORDER BY domain_id`.execute(db);
  return rows;
}

/** A deleted domain's cleared links are remembered no longer (no state of it can come after its delete). */
export async function forgetClearedLinksOfDomain(db: Kysely<MerchantsDb>, partnerId: string, domainId: string) {
  await db.deleteFrom('cleared_links').where('partner_id', '=', partnerId).where('domain_id', '=', domainId).execute();
}

/** The merchant's links as merchant.changed carries them. */
export async function linksOfMerchant(db: Kysely<MerchantsDb>, merchantRef: string) {
  return db
    .selectFrom('domain_links')
    .select(['domain_id', 'requested_as'])
    .where('merchant_ref', '=', merchantRef)
    .orderBy('domain_id')
    .execute();
}

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

/** Links the domain to each merchant_id with its current state; an existing link keeps its linked_at. */
export async function upsertLinks(db: Kysely<MerchantsDb>, link: DomainLink, merchantIds: string[], linkedAt: string) {
  if (merchantIds.length === 0) return;
  await db
    .insertInto('domain_links')
    .values(
      merchantIds.map((merchantId) => ({
        domain_id: link.domainId,
        partner_id: link.partnerId,
        merchant_id: merchantId,
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
      oc.columns(['domain_id', 'merchant_id']).doUpdateSet((eb) => ({
        hostname: eb.ref('excluded.hostname'),
        status: eb.ref('excluded.status'),
        is_active: eb.ref('excluded.is_active'),
        email: eb.ref('excluded.email'),
        source: eb.ref('excluded.source'),
        domain_created_at: eb.ref('excluded.domain_created_at'),
      })),
    )
    .execute();
}

/** Removes the domain's links except to these merchant_ids (all of them when none are kept). */
export async function deleteLinksOfDomain(db: Kysely<MerchantsDb>, partnerId: string, domainId: string, keep: string[] = []) {
  await db
    .deleteFrom('domain_links')
    .where('partner_id', '=', partnerId)
    .where('domain_id', '=', domainId)
    .where(sql<boolean>`NOT (merchant_id = ANY(${keep}::text[]))`)
    .execute();
}

/** deleteLinksOfDomain for many domains in one statement. */
export async function deleteLinksOfDomains(db: Kysely<MerchantsDb>, domains: { partnerId: string; domainId: string; keep: string[] }[]) {
  if (domains.length === 0) return;
  const kept = domains.flatMap((d) => d.keep.map((merchantId) => ({ domainId: d.domainId, merchantId })));
  await sql`
    DELETE FROM domain_links l
    USING UNNEST(${domains.map((d) => d.partnerId)}::text[], ${domains.map((d) => d.domainId)}::uuid[]) AS t(partner_id, domain_id)
    WHERE l.partner_id = t.partner_id AND l.domain_id = t.domain_id
      AND NOT EXISTS (
        SELECT 1 FROM UNNEST(${kept.map((k) => k.domainId)}::uuid[], ${kept.map((k) => k.merchantId)}::text[]) AS k(domain_id, merchant_id)
        WHERE k.domain_id = l.domain_id AND k.merchant_id = l.merchant_id)`.execute(db);
}

export async function deleteLinksOfMerchant(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  await db.deleteFrom('domain_links').where('partner_id', '=', partnerId).where('merchant_id', '=', merchantId).execute();
}

import { sql, type Kysely } from '@platform/db';
import type { MerchantsDb } from './tables';

export interface DomainLink {
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

export async function deleteLinksOfMerchant(db: Kysely<MerchantsDb>, partnerId: string, merchantId: string) {
  await db.deleteFrom('domain_links').where('partner_id', '=', partnerId).where('merchant_id', '=', merchantId).execute();
}

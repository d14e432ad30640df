import type { Kysely } from 'kysely';
import { isUuid } from '@platform/contracts';
import type { DomainsDb } from '../db/tables';

/** A customer's domain as the instance endpoints act on it: its company and property. */
export interface CustomerDomain {
  id: string;
  partner_id: string;
  company_id: string;
  property_id: string;
}

/** At most this many domain ids name an ambiguous merchant's domains (MERCHANT.AMBIGUOUS data). */
const AMBIGUOUS_LIST_MAX = 100;

/**
 * The partner's domains linked to a merchant, named by its merchant_id or (a UUID) the
 * merchant's own id, as the records endpoints resolve it; another partner's are never among them.
 */
export async function findMerchantDomainIds(db: Kysely<DomainsDb>, partnerId: string, merchant: string) {
  const rows = await db
    .selectFrom('domain_merchants')
    .select('domain_id')
    .distinct()
    .where('partner_id', '=', partnerId)
    .where((eb) =>
      isUuid(merchant)
        ? eb.or([eb('merchant_id', '=', merchant), eb('merchant_ref', '=', merchant.toLowerCase())])
        : eb('merchant_id', '=', merchant),
    )
    .orderBy('domain_id')
    .limit(AMBIGUOUS_LIST_MAX)
    .execute();
  return rows.map((r) => r.domain_id);
}

/** The partner's domain by id (locked against concurrent writes when `lock`), or undefined. */
export async function findCustomerDomain(
  db: Kysely<DomainsDb>,
  partnerId: string,
  id: string,
  lock = false,
): Promise<CustomerDomain | undefined> {
  const query = db
    .selectFrom('domains')
    .select(['id', 'partner_id', 'company_id', 'property_id'])
    .where('id', '=', id)
    .where('partner_id', '=', partnerId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function findCompany(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return db
    .selectFrom('companies')
    .select([
      'id',
      'name',
      'email',
      'country',
      'city',
      'address',
      'postal_code',
      'phone_number',
      'owner_id',
      'owner_email',
      'owner_first_name',
      'owner_last_name',
      'dpo_name',
      'dpo_email',
    ])
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
}
export type CompanyRow = Awaited<ReturnType<typeof findCompany>>;

export async function findProperty(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return db
    .selectFrom('properties')
    .selectAll()
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
}
export type PropertyRow = Awaited<ReturnType<typeof findProperty>>;

/** Replaces a property's text overrides (validated by the contract) and answers the property. */
export async function writeTextOverrides(db: Kysely<DomainsDb>, partnerId: string, id: string, overrides: object) {
  return db
    .updateTable('properties')
    .set({ text_overrides: JSON.stringify(overrides), updated_at: new Date() })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

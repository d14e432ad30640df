import type { Insertable, Kysely } from 'kysely';
import { PG_FOREIGN_KEY_VIOLATION, precompile, sql, tryInSavepoint } from '@platform/db';
import type { CompaniesTable, DomainsDb } from '../../db/tables';

export type NewCompany = Insertable<CompaniesTable>;

/**
 * The partner's oldest company with this exact name (company_setup=false reuses it), locked
 * against deletion until the transaction ends (a domain about to reference it).
 */
const companyByNameQuery = precompile((db: Kysely<DomainsDb>, p: { partnerId: string; name: string }) =>
  db
    .selectFrom('companies')
    .select([
      'id',
      'name',
      'trade_name',
      'id_number',
      'owner_email',
      'email',
      'phone_number',
      'country',
      'state',
      'city',
      'address',
      'address_2',
      'postal_code',
    ])
    .where('partner_id', '=', p.partnerId)
    .where('name', '=', p.name)
    .orderBy('created_at')
    .limit(1)
    .forKeyShare(),
);

export async function findCompanyByName(db: Kysely<DomainsDb>, partnerId: string, name: string) {
  const [company] = await companyByNameQuery(db, { partnerId, name });
  return company;
}

/**
 * Serialises, until the transaction ends, every transaction that looks up or creates a company of
 * this partner and name, so concurrent creates with company_setup=false make one company.
 * (Different names may share a lock; that only costs a short wait.)
 */
export async function lockCompanyName(db: Kysely<DomainsDb>, partnerId: string, name: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${partnerId}), hashtext(${name}))`.execute(db);
}

/**
 * Removes the company only when no domain of it is left. A create that reuses the company at the
 * same moment wins: its new reference makes the delete fail, and only that statement is undone.
 */
export async function deleteCompanyIfUnused(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await tryInSavepoint(db, () => deleteUnusedCompany(db, partnerId, id), [PG_FOREIGN_KEY_VIOLATION]);
}

async function deleteUnusedCompany(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db
    .deleteFrom('companies')
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('domains').select('domains.id').where('domains.company_id', '=', id))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('properties').select('properties.id').where('properties.company_id', '=', id))),
    )
    .execute();
}

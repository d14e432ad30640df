import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CompaniesTable, DomainsDb } from './tables';

export type NewCompany = Insertable<CompaniesTable>;

/** The partner's oldest company with this exact name (company_setup=false reuses it). */
export async function findCompanyByName(db: Kysely<DomainsDb>, partnerId: string, name: string) {
  return db
    .selectFrom('companies')
    .select(['id', 'name', 'trade_name', 'id_number', 'owner_email'])
    .where('partner_id', '=', partnerId)
    .where('name', '=', name)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export async function insertCompany(db: Kysely<DomainsDb>, company: NewCompany) {
  await db.insertInto('companies').values(company).execute();
}

export async function updateCompany(db: Kysely<DomainsDb>, partnerId: string, id: string, changes: Updateable<CompaniesTable>) {
  await db
    .updateTable('companies')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .execute();
}

/** Removes the company only when no domain of it is left. */
export async function deleteCompanyIfUnused(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db
    .deleteFrom('companies')
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('domains').select('domains.id').where('domains.company_id', '=', id))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('properties').select('properties.id').where('properties.company_id', '=', id))))
    .execute();
}

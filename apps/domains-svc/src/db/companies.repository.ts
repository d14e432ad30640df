import type { Insertable, Kysely, Updateable } from 'kysely';
import { precompile } from '@platform/db';
import type { CompaniesTable, DomainsDb } from './tables';

export type NewCompany = Insertable<CompaniesTable>;

/** The partner's oldest company with this exact name (company_setup=false reuses it). */
const companyByNameQuery = precompile((db: Kysely<DomainsDb>, p: { partnerId: string; name: string }) =>
  db
    .selectFrom('companies')
    .select(['id', 'name', 'trade_name', 'id_number', 'owner_email'])
    .where('partner_id', '=', p.partnerId)
    .where('name', '=', p.name)
    .orderBy('created_at')
    .limit(1),
);

export async function findCompanyByName(db: Kysely<DomainsDb>, partnerId: string, name: string) {
  const [company] = await companyByNameQuery(db, { partnerId, name });
  return company;
}

// Create is a hot write path: inserts are compiled once per column set (see precompile).
const insertCompanyQuery = precompile((db: Kysely<DomainsDb>, company: NewCompany) => db.insertInto('companies').values(company));

export async function insertCompany(db: Kysely<DomainsDb>, company: NewCompany) {
  await insertCompanyQuery(db, company);
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

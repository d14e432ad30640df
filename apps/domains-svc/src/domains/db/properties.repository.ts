import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DomainsDb, PropertiesTable } from '../../db/tables';

export type NewProperty = Insertable<PropertiesTable>;
export type PropertyRow = Selectable<PropertiesTable>;

export async function deleteProperty(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db.deleteFrom('properties').where('id', '=', id).where('partner_id', '=', partnerId).execute();
}

import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DomainsDb, PropertiesTable } from './tables';

export type NewProperty = Insertable<PropertiesTable>;
export type PropertyRow = Selectable<PropertiesTable>;

/** The widget settings row, locked for a read-modify-write. */
export async function findPropertyForUpdate(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return db.selectFrom('properties').selectAll().where('id', '=', id).where('partner_id', '=', partnerId).forUpdate().executeTakeFirst();
}

export async function updateProperty(db: Kysely<DomainsDb>, partnerId: string, id: string, changes: Updateable<PropertiesTable>) {
  return db
    .updateTable('properties')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProperty(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db.deleteFrom('properties').where('id', '=', id).where('partner_id', '=', partnerId).execute();
}

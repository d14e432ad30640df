import type { DataCollectionItem } from '@platform/contracts';
import { sql, type Kysely, type Transaction } from '@platform/db';
import { EMPTY_COMPANY, type DataControllerBase, type ProjectedProperty } from '../domain/property-projection';
import type { ConsentDb } from './tables';

const rowOf = (p: ProjectedProperty, company: Partial<DataControllerBase>) => ({
  property_id: p.propertyId,
  partner_id: p.partnerId,
  domain_id: p.domainId,
  hostname: p.hostname,
  subdomains: p.subdomains,
  status: p.status,
  merchant_ids: p.merchantIds,
  merchant_refs: p.merchantRefs,
  company_id: p.companyId,
  company: JSON.stringify({ ...EMPTY_COMPANY, ...company }),
});

/** The property's state after a domain.changed: everything it carries replaces what was kept; the company's other fields stay. */
export async function upsertPropertyState(db: Kysely<ConsentDb>, p: ProjectedProperty) {
  await db
    .insertInto('properties')
    .values(rowOf(p, p.company))
    .onConflict((oc) =>
      oc.column('property_id').doUpdateSet((eb) => ({
        domain_id: eb.ref('excluded.domain_id'),
        hostname: eb.ref('excluded.hostname'),
        subdomains: eb.ref('excluded.subdomains'),
        status: eb.ref('excluded.status'),
        merchant_ids: eb.ref('excluded.merchant_ids'),
        merchant_refs: eb.ref('excluded.merchant_refs'),
        company_id: eb.ref('excluded.company_id'),
        company: sql`properties.company || ${JSON.stringify(p.company)}::jsonb`,
        updated_at: sql`now()`,
      })),
    )
    .execute();
}

/**
 * What only domain.created tells (the company's address): added to a property a newer
 * domain.changed may already have written, without overwriting what that one set (its name and
 * e-mail; the fields it left empty are filled).
 */
export async function mergeCreatedProperty(db: Kysely<ConsentDb>, p: ProjectedProperty) {
  await db
    .insertInto('properties')
    .values(rowOf(p, p.company))
    .onConflict((oc) =>
      oc.column('property_id').doUpdateSet({ company: sql`excluded.company || jsonb_strip_nulls(properties.company)` }),
    )
    .execute();
}

/** A deleted domain's property: kept as a tombstone (its records stay readable), never matched by widget requests again. */
export async function markPropertyDeleted(
  db: Kysely<ConsentDb>,
  p: Pick<ProjectedProperty, 'propertyId' | 'partnerId' | 'domainId' | 'hostname' | 'companyId'>,
) {
  await db
    .insertInto('properties')
    .values({
      property_id: p.propertyId,
      partner_id: p.partnerId,
      domain_id: p.domainId,
      hostname: p.hostname,
      subdomains: [],
      status: 'DELETED',
      merchant_ids: [],
      merchant_refs: [],
      company_id: p.companyId,
      company: JSON.stringify(EMPTY_COMPANY),
      deleted: true,
    })
    .onConflict((oc) => oc.column('property_id').doUpdateSet({ deleted: true, updated_at: sql`now()` }))
    .execute();
}

export async function findLiveProperty(db: Kysely<ConsentDb>, propertyId: string) {
  return db
    .selectFrom('properties')
    .selectAll()
    .where('property_id', '=', propertyId)
    .where('deleted', '=', false)
    .executeTakeFirst();
}
export type PropertyRow = NonNullable<Awaited<ReturnType<typeof findLiveProperty>>>;

/** Whether the property offers the request form (a property not projected yet is left to the event that creates it). */
export async function setHasDsar(
  trx: Transaction<ConsentDb>,
  p: { propertyId: string; partnerId: string; hasDsar: boolean },
) {
  await trx
    .updateTable('properties')
    .set({ has_dsar: p.hasDsar })
    .where('property_id', '=', p.propertyId)
    .where('partner_id', '=', p.partnerId)
    .execute();
}

/** The scanner's data collection of a partner's property (a property another partner names is left alone). */
export async function setScannedCollection(
  trx: Transaction<ConsentDb>,
  { propertyId, partnerId, items }: { propertyId: string; partnerId: string; items: DataCollectionItem[] },
) {
  await trx
    .updateTable('properties')
    .set({ scanned_collection: JSON.stringify(items) })
    .where('property_id', '=', propertyId)
    .where('partner_id', '=', partnerId)
    .execute();
}

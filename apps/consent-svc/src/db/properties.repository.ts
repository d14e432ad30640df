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

/**
 * The properties' states after domain.changed, one row per property (the newest state of each), in
 * one statement: everything a state carries replaces what was kept; of the company only the fields
 * the event carries (its patch), the others stay.
 */
export async function upsertPropertyStates(db: Kysely<ConsentDb>, states: ProjectedProperty[]) {
  if (states.length === 0) return;
  const rows = states.map((p) => ({
    ...rowOf(p, p.company),
    company: { ...EMPTY_COMPANY, ...p.company },
    patch: p.company,
  }));
  await sql`
    WITH t AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS t(
        property_id text, partner_id text, domain_id text, hostname text, subdomains text[], status text,
        merchant_ids text[], merchant_refs text[], company_id text, company jsonb, patch jsonb))
    INSERT INTO properties (property_id, partner_id, domain_id, hostname, subdomains, status, merchant_ids, merchant_refs, company_id, company)
    SELECT property_id, partner_id, domain_id, hostname, subdomains, status, merchant_ids, merchant_refs, company_id, company FROM t
    ON CONFLICT (property_id) DO UPDATE SET
      domain_id = excluded.domain_id, hostname = excluded.hostname, subdomains = excluded.subdomains,
      status = excluded.status, merchant_ids = excluded.merchant_ids, merchant_refs = excluded.merchant_refs,
      company_id = excluded.company_id,
      company = properties.company || (SELECT patch FROM t WHERE t.property_id = excluded.property_id),
      updated_at = now()`.execute(db);
}

/**
 * What only domain.created tells (the company's address), one row per property: added to a
 * property a newer domain.changed may already have written, without overwriting what that one set
 * (its name and e-mail; the fields it left empty are filled).
 */
export async function mergeCreatedProperties(db: Kysely<ConsentDb>, properties: ProjectedProperty[]) {
  if (properties.length === 0) return;
  await db
    .insertInto('properties')
    .values(properties.map((p) => rowOf(p, p.company)))
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

/** Whether each property offers the request form (a property not projected yet is left to the event that creates it). */
export async function setHasDsar(
  trx: Transaction<ConsentDb>,
  settings: { propertyId: string; partnerId: string; hasDsar: boolean }[],
) {
  if (settings.length === 0) return;
  await sql`
    UPDATE properties AS p SET has_dsar = t.has_dsar
      FROM UNNEST(${settings.map((x) => x.propertyId)}::text[], ${settings.map((x) => x.partnerId)}::text[],
                  ${settings.map((x) => x.hasDsar)}::boolean[]) AS t(property_id, partner_id, has_dsar)
     WHERE p.property_id = t.property_id AND p.partner_id = t.partner_id`.execute(trx);
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

import type { Kysely } from 'kysely';
import { sql } from '@platform/db';
import type { PropertyRow } from '../domains/db/properties.repository';
import type { DomainsDb } from '../db/tables';
import { isActiveStatus, STATUS_MOVES } from '../status';

/** The hostname of a property's domain (the widget's Origin rule), or undefined when there is none. */
export async function findPropertyHostname(db: Kysely<DomainsDb>, propertyId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('domains')
    .select('hostname')
    .where('property_id', '=', propertyId)
    .executeTakeFirst();
  return row?.hostname;
}

/** What the widget's public settings are built from: domain status, property settings, company details. */
export async function findWidgetSettingsRow(db: Kysely<DomainsDb>, propertyId: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('properties as p', 'p.id', 'd.property_id')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select([
      'd.property_id',
      'd.hostname',
      'd.status',
      'p.default_notice_type',
      'p.primary_color',
      'p.text_color',
      'p.widget_font',
      'p.widget_position',
      'p.border_radius',
      'p.has_scripts',
      'p.has_dsar',
      'p.has_docs',
      'p.has_accessibility',
      'p.display_company',
      'p.display_dpo',
      'p.consent_max_age_days',
      'p.default_language',
      'p.text_overrides',
      'p.regime',
      'p.ads_data_redaction',
      'p.url_passthrough',
      'p.scan_cookies',
      'p.scan_data_collection',
      'c.name as company_name',
      'c.trade_name',
      'c.email',
      'c.country',
      'c.state',
      'c.city',
      'c.address',
      'c.address_2',
      'c.postal_code',
      'c.phone_number',
      'c.dpo_name',
      'c.dpo_email',
    ])
    .where('d.property_id', '=', propertyId)
    .executeTakeFirst();
}
export type WidgetSettingsRow = NonNullable<Awaited<ReturnType<typeof findWidgetSettingsRow>>>;

/**
 * What changes whenever anything the settings are built from changes: the domain's, property's and
 * company's updated_at (every write of them sets it; as text, to the microsecond), or undefined
 * for no such property. One indexed read, much lighter than the settings' row.
 */
export async function findWidgetSettingsStamp(db: Kysely<DomainsDb>, propertyId: string) {
  const row = await db
    .selectFrom('domains as d')
    .innerJoin('properties as p', 'p.id', 'd.property_id')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select(sql<string>`concat_ws('|', d.updated_at, p.updated_at, c.updated_at)`.as('stamp'))
    .where('d.property_id', '=', propertyId)
    .executeTakeFirst();
  return row?.stamp;
}

/** A view's read: the domain's hostname (the page must be on it) and status (a view of an ACTIVE domain writes nothing). */
export async function findViewedDomain(db: Kysely<DomainsDb>, propertyId: string) {
  return db
    .selectFrom('domains')
    .select(['hostname', 'status'])
    .where('property_id', '=', propertyId)
    .executeTakeFirst();
}

/**
 * One conditional UPDATE: the first view's move (ACTIVE from NEW, SCANNED or INVITED; status.ts),
 * activated_at set only when still empty. Concurrent first views queue on the row lock and re-check the status, so exactly one
 * gets the row back; the others (and later views) get undefined.
 */
export async function activateOnFirstView(db: Kysely<DomainsDb>, propertyId: string) {
  return db
    .updateTable('domains')
    .set({
      status: STATUS_MOVES.firstView.to,
      is_active: isActiveStatus(STATUS_MOVES.firstView.to),
      activated_at: sql`COALESCE(activated_at, now())`,
      updated_at: sql`now()`,
    })
    .where('property_id', '=', propertyId)
    .where('status', 'in', STATUS_MOVES.firstView.from)
    .returning(['id', 'partner_id', 'hostname', 'activated_at'])
    .executeTakeFirst();
}

/** The property's activated_at, set once (the domain's first activation), with the property as events show it. */
export async function markPropertyActivated(db: Kysely<DomainsDb>, propertyId: string, at: Date): Promise<PropertyRow> {
  return db
    .updateTable('properties')
    .set({ activated_at: sql`COALESCE(activated_at, ${at})`, updated_at: sql`now()` })
    .where('id', '=', propertyId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

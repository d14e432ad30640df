import type { Insertable, Kysely, Updateable, UpdateObject } from 'kysely';
import { precompile, sql } from '@platform/db';
import { AppError } from '@platform/http';
import type { NewCompany } from './companies.repository';
import type { NewProperty, PropertyRow } from './properties.repository';
import { rethrowSubdomainTaken } from './subdomains.repository';
import {
  ACTIVATION_REMINDER_DAYS,
  type CompaniesTable,
  type DomainsDb,
  type DomainsTable,
  type PropertiesTable,
} from '../../db/tables';

/**
 * What a create writes: the property, the domain, its subdomains and merchant links, its pending
 * activation reminders, its queued scan (when its action asks for one), and the company unless one is reused.
 */
export interface NewDomainRows {
  company?: NewCompany;
  property: NewProperty;
  domain: Insertable<DomainsTable>;
  subdomains: { id: string; hostname: string }[];
  /** Who the queued scan is for (SCAN, SCAN_INVITE); undefined: no scan. The scanner role picks it up. */
  scan: string | undefined;
}

// One statement (data-modifying CTEs), as a create is the hot write path and each round trip
// costs both processes a socket write and a wake-up. Rows are flattened into `<table>.<column>`
// parameters so the statement is compiled once per column set (see precompile). The domain's
// ON CONFLICT leaves the transaction usable, so the existing domain can be named; subdomains and
// merchant links, reminders and the scan are inserted only with the domain.
const insertNewDomainQuery = precompile((db: Kysely<DomainsDb>, p: Record<string, unknown>) => {
  const company = columnsOf(p, 'company') as NewCompany;
  return sql<{ id: string }>`
    WITH ${Object.keys(company).length > 0 ? sql`new_company AS (${db.insertInto('companies').values(company)}),` : sql``}
    new_property AS (${db.insertInto('properties').values(columnsOf(p, 'property') as NewProperty)}),
    new_domain AS (${db
      .insertInto('domains')
      .values(columnsOf(p, 'domain') as Insertable<DomainsTable>)
      .onConflict((oc) => oc.constraint('domains_partner_hostname_key').doNothing())
      .returning(['id', 'partner_id', 'property_id', 'created_at'])}),
    new_subdomains AS (
      INSERT INTO subdomains (id, partner_id, domain_id, hostname, created_at, updated_at)
      SELECT s.id, d.partner_id, d.id, s.hostname, d.created_at, d.created_at
      FROM new_domain d, UNNEST(${p.subdomain_ids}::uuid[], ${p.subdomain_hostnames}::text[]) AS s(id, hostname)
    ),
    new_links AS (
      INSERT INTO domain_merchants (partner_id, merchant_id, domain_id)
      SELECT d.partner_id, m, d.id FROM new_domain d, UNNEST(${p.merchant_ids}::text[]) AS m
    ),
    new_reminders AS (
      INSERT INTO activation_reminders (property_id, day, property_created_at)
      SELECT d.property_id, r, d.created_at FROM new_domain d, UNNEST(${ACTIVATION_REMINDER_DAYS}::int[]) AS r
    ),
    new_scan AS (
      INSERT INTO scans (id, partner_id, domain_id, requested_by)
      SELECT gen_random_uuid(), d.partner_id, d.id, ${p.scan_requested_by}::text FROM new_domain d
      WHERE ${p.scan_requested_by}::text IS NOT NULL
    )
    SELECT id FROM new_domain`;
});

const columnsOf = (p: Record<string, unknown>, table: string) =>
  Object.fromEntries(
    Object.entries(p).flatMap(([key, value]) =>
      key.startsWith(`${table}.`) ? [[key.slice(table.length + 1), value]] : [],
    ),
  );
const prefixed = (table: string, row: object) =>
  Object.entries(row).map(([column, value]) => [`${table}.${column}`, value] as const);

const domainIdByHostnameQuery = precompile((db: Kysely<DomainsDb>, p: { partnerId: string; hostname: string }) =>
  db.selectFrom('domains').select('id').where('partner_id', '=', p.partnerId).where('hostname', '=', p.hostname),
);

/** Inserts a new domain and what comes with it (see NewDomainRows), or 409 DOMAIN.ALREADY_EXISTS with the id of the partner's domain of that hostname. */
export async function insertNewDomain(db: Kysely<DomainsDb>, rows: NewDomainRows) {
  const { domain } = rows;
  const params = Object.fromEntries([
    ...prefixed('company', rows.company ?? {}),
    ...prefixed('property', rows.property),
    ...prefixed('domain', domain),
    ['subdomain_ids', rows.subdomains.map((s) => s.id)],
    ['subdomain_hostnames', rows.subdomains.map((s) => s.hostname)],
    ['merchant_ids', [...new Set(domain.merchants ?? [])]],
    ['scan_requested_by', rows.scan ?? null],
  ]);
  let inserted: { id: string }[];
  try {
    inserted = await insertNewDomainQuery(db, params);
  } catch (err) {
    rethrowSubdomainTaken(err);
  }
  if (inserted.length > 0) return;
  const [existing] = await domainIdByHostnameQuery(db, { partnerId: domain.partner_id, hostname: domain.hostname });
  throw new AppError(
    'DOMAIN.ALREADY_EXISTS',
    'This partner already registered the domain.',
    existing ? { id: existing.id } : undefined,
  );
}

export async function updateDomain(
  db: Kysely<DomainsDb>,
  partnerId: string,
  id: string,
  changes: UpdateObject<DomainsDb, 'domains'>,
) {
  return db
    .updateTable('domains')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .returning(['updated_at', 'status', 'is_active'])
    .executeTakeFirstOrThrow();
}

/**
 * A settings update's writes in one statement: the company's fields and the property's widget
 * settings (each only when given) and the domain's updated_at. Answers the property row after
 * the change, or undefined when no setting changed. The caller holds the domain's lock.
 */
export async function updateDomainSettings(
  db: Kysely<DomainsDb>,
  domain: { partner_id: string; id: string; company_id: string; property_id: string },
  changes: { company: Updateable<CompaniesTable>; settings: Updateable<PropertiesTable> },
): Promise<PropertyRow | undefined> {
  const now = new Date();
  const company =
    Object.keys(changes.company).length > 0
      ? sql`company AS (${db
          .updateTable('companies')
          .set({ ...changes.company, updated_at: now })
          .where('id', '=', domain.company_id)
          .where('partner_id', '=', domain.partner_id)}),`
      : sql``;
  const property =
    Object.keys(changes.settings).length > 0
      ? db
          .updateTable('properties')
          .set({ ...changes.settings, updated_at: now })
          .where('id', '=', domain.property_id)
          .where('partner_id', '=', domain.partner_id)
          .returningAll()
      : db
          .selectFrom('properties')
          .selectAll()
          .where(sql<boolean>`false`);
  const { rows } = await sql<PropertyRow>`
    WITH ${company} touched AS (${db.updateTable('domains').set({ updated_at: now }).where('id', '=', domain.id).where('partner_id', '=', domain.partner_id)})
    ${property}`.execute(db);
  return rows[0];
}

/** Deletes the domain (subdomains cascade). */
export async function deleteDomain(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db.deleteFrom('domains').where('id', '=', id).where('partner_id', '=', partnerId).execute();
}

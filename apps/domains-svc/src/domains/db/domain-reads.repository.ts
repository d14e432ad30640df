import type { Kysely } from 'kysely';
import { precompile, sql } from '@platform/db';
import type { DomainsDb } from '../../db/tables';

/** Columns every domain answer needs (list, create, detail): domain, widget flags, company basics. */
export const VIEW_COLUMNS = [
  'd.id',
  'd.partner_id',
  'd.hostname',
  'd.status',
  'd.is_active',
  'd.source',
  'd.instance_id',
  'd.widget_version',
  'd.merchants',
  'd.created_at',
  'd.updated_at',
  'd.activated_at',
  'd.property_id',
  'd.company_id',
  'p.has_scripts',
  'p.has_dsar',
  'p.has_docs',
  'p.has_accessibility',
  'p.display_dpo',
  'p.display_company',
  'p.has_vendor_logo',
  'p.default_notice_type',
  'c.name as company_name',
  'c.trade_name as company_trade_name',
  'c.id_number as company_id_number',
  'c.owner_email',
] as const;

/** The company and owner part of the single read, plus the subscription columns. */
const DETAIL_COLUMNS = [
  'p.name as property_name',
  'c.email as company_email',
  'c.country',
  'c.city',
  'c.address',
  'c.postal_code',
  'c.phone_number',
  'c.owner_id',
  'c.owner_first_name',
  'c.owner_last_name',
  'd.subscription_id',
  'd.product_id',
  'd.price_list_id',
  'd.price_id',
  'd.subscription_status',
  'd.subscription_start',
  'd.subscription_end',
] as const;

/** A domain with its property and company (every domain has both). */
export const joined = (db: Kysely<DomainsDb>) =>
  db
    .selectFrom('domains as d')
    .innerJoin('properties as p', 'p.id', 'd.property_id')
    .innerJoin('companies as c', 'c.id', 'd.company_id');

export type DomainDetailRow = NonNullable<Awaited<ReturnType<typeof findDomainDetail>>>;

// The hottest read: compiled once (see precompile).
const domainDetailQuery = precompile((db: Kysely<DomainsDb>, p: { partnerId: string; id: string }) =>
  joined(db)
    .select([...VIEW_COLUMNS, ...DETAIL_COLUMNS])
    .where('d.id', '=', p.id)
    .where('d.partner_id', '=', p.partnerId),
);

export async function findDomainDetail(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  const [row] = await domainDetailQuery(db, { partnerId, id });
  return row;
}

/** The domain row locked for a state change (FOR UPDATE serialises concurrent transitions). */
export async function findDomainForUpdate(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return joined(db)
    .select(VIEW_COLUMNS)
    .select(['d.subscription_id', 'p.primary_color'])
    .where('d.id', '=', id)
    .where('d.partner_id', '=', partnerId)
    .forUpdate('d')
    .executeTakeFirst();
}

/** The domain's whole state as other services project it (see domain.changed), subdomains included. */
export async function findDomainState(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return db
    .selectFrom('domains as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select([
      'd.id',
      'd.hostname',
      'd.status',
      'd.is_active',
      'd.source',
      'd.property_id',
      'd.company_id',
      'c.name as company_name',
      'c.owner_email',
      'c.trade_name as company_trade_name',
      'c.email as company_email',
      'c.phone_number',
      'c.country',
      'c.state',
      'c.city',
      'c.address',
      'c.address_2',
      'c.postal_code',
      'd.merchants',
      'd.created_at',
      'd.updated_at',
      'd.activated_at',
    ])
    .select(
      sql<
        string[]
      >`coalesce((SELECT array_agg(s.hostname ORDER BY s.hostname COLLATE "C") FROM subdomains s WHERE s.domain_id = d.id), '{}')`.as(
        'subdomains',
      ),
    )
    .select(
      sql<
        { merchant_id: string; id: string | null }[]
      >`coalesce((SELECT json_agg(json_build_object('merchant_id', m.merchant_id, 'id', m.merchant_ref) ORDER BY m.merchant_id) FROM domain_merchants m WHERE m.domain_id = d.id), '[]')`.as(
        'merchant_links',
      ),
    )
    .where('d.id', '=', id)
    .where('d.partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
}
export type DomainStateRow = Awaited<ReturnType<typeof findDomainState>>;

/** The partner's domains of a company (a company reused by name has several). */
export async function findCompanyDomainIds(db: Kysely<DomainsDb>, partnerId: string, companyId: string) {
  const rows = await db
    .selectFrom('domains')
    .select('id')
    .where('partner_id', '=', partnerId)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Whose a domain is (any partner's: the gateway asks for a public caller), with the company's account_email. */
export const findDomainOwner = (db: Kysely<DomainsDb>, domainId: string) =>
  db
    .selectFrom('domains as d')
    .innerJoin('companies as c', 'c.id', 'd.company_id')
    .select(['d.partner_id', 'd.company_id', 'd.hostname', 'c.owner_email as account_email'])
    .where('d.id', '=', domainId)
    .executeTakeFirst();

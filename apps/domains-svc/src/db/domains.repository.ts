import type { Insertable, Kysely, Updateable } from 'kysely';
import { precompile, rethrowUnique, sql } from '@platform/db';
import type { DomainsDb, DomainsTable } from './tables';

/** Columns every domain answer needs (list, create, detail): domain, widget flags, company basics. */
const VIEW_COLUMNS = [
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
  'd.product_code',
  'd.price_list_code',
] as const;

const joined = (db: Kysely<DomainsDb>) =>
  db.selectFrom('domains as d').innerJoin('properties as p', 'p.id', 'd.property_id').innerJoin('companies as c', 'c.id', 'd.company_id');

export type DomainDetailRow = NonNullable<Awaited<ReturnType<typeof findDomainDetail>>>;

export async function insertDomain(db: Kysely<DomainsDb>, domain: Insertable<DomainsTable>) {
  try {
    await db.insertInto('domains').values(domain).execute();
  } catch (err) {
    rethrowUnique(err, 'DOMAIN.ALREADY_EXISTS', 'This partner already registered the domain.', 'domains_partner_hostname_key');
  }
}

// The hottest read: compiled once (see precompile).
const domainDetailQuery = precompile((db: Kysely<DomainsDb>, partnerId: string, id: string) =>
  joined(db).select([...VIEW_COLUMNS, ...DETAIL_COLUMNS]).where('d.id', '=', id).where('d.partner_id', '=', partnerId),
);

export async function findDomainDetail(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  const [row] = await domainDetailQuery(db, partnerId, id);
  return row;
}

/** The domain row locked for a state change (FOR UPDATE serialises concurrent transitions). */
export async function findDomainForUpdate(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  return joined(db)
    .select(VIEW_COLUMNS)
    .select(['d.subscription_id'])
    .where('d.id', '=', id)
    .where('d.partner_id', '=', partnerId)
    .forUpdate('d')
    .executeTakeFirst();
}

export type DomainListRow = Awaited<ReturnType<typeof listDomains>>[number];

export interface DomainFilters {
  isActive: boolean;
  status?: string;
  search?: { text: string; uuid?: string };
  id?: string;
  source?: string;
  flags: Partial<Record<'has_scripts' | 'has_dsar' | 'has_docs' | 'has_accessibility' | 'display_company' | 'display_dpo', boolean>>;
  companyTradeName?: string;
  companyIdNumber?: string;
  companyId?: string;
  propertyId?: string;
  instanceId?: number;
  widgetVersion?: number;
  merchantId?: string;
  referralPartnerId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  activatedFrom?: Date;
  activatedTo?: Date;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page (limit + 1 rows, to know whether another exists), newest first. */
export async function listDomains(db: Kysely<DomainsDb>, partnerId: string, f: DomainFilters, offset: number, limit: number) {
  let q = joined(db).select(VIEW_COLUMNS).where('d.partner_id', '=', partnerId).where('d.is_active', '=', f.isActive);
  if (f.status) q = q.where('d.status', '=', f.status);
  if (f.id) q = q.where('d.id', '=', f.id);
  if (f.source) q = q.where('d.source', '=', f.source);
  for (const [flag, value] of Object.entries(f.flags)) q = q.where(`p.${flag as keyof DomainFilters['flags']}` as const, '=', value);
  if (f.search) {
    const { text, uuid } = f.search;
    q = q.where((eb) =>
      eb.or([
        eb('d.hostname', 'like', `%${likeEscape(text.toLowerCase())}%`),
        ...(uuid ? [eb('d.id', '=', uuid), eb('d.property_id', '=', uuid)] : []),
      ]),
    );
  }
  if (f.companyTradeName) q = q.where('c.trade_name', 'ilike', `%${likeEscape(f.companyTradeName)}%`);
  if (f.companyIdNumber) q = q.where('c.id_number', '=', f.companyIdNumber);
  if (f.companyId) q = q.where('d.company_id', '=', f.companyId);
  if (f.propertyId) q = q.where('d.property_id', '=', f.propertyId);
  if (f.instanceId !== undefined) q = q.where('d.instance_id', '=', f.instanceId);
  if (f.widgetVersion !== undefined) q = q.where('d.widget_version', '=', f.widgetVersion);
  // Array containment uses the GIN index on merchants.
  if (f.merchantId) q = q.where(sql<boolean>`d.merchants @> ARRAY[${f.merchantId}]::text[]`);
  if (f.referralPartnerId) q = q.where('d.referral_partner_id', '=', f.referralPartnerId);
  if (f.createdFrom) q = q.where('d.created_at', '>=', f.createdFrom);
  if (f.createdTo) q = q.where('d.created_at', '<=', f.createdTo);
  if (f.activatedFrom) q = q.where('d.activated_at', '>=', f.activatedFrom);
  if (f.activatedTo) q = q.where('d.activated_at', '<=', f.activatedTo);
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').offset(offset).limit(limit + 1).execute();
}

export async function updateDomain(db: Kysely<DomainsDb>, partnerId: string, id: string, changes: Updateable<DomainsTable>) {
  return db
    .updateTable('domains')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('partner_id', '=', partnerId)
    .returning(['updated_at', 'status', 'is_active'])
    .executeTakeFirstOrThrow();
}

/** Deletes the domain (subdomains cascade). */
export async function deleteDomain(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db.deleteFrom('domains').where('id', '=', id).where('partner_id', '=', partnerId).execute();
}

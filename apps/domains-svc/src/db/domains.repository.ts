import type { Insertable, Kysely, Updateable } from 'kysely';
import { precompile, rethrowUnique, sql } from '@platform/db';
import { AppError } from '@platform/http';
import type { NewCompany } from './companies.repository';
import type { NewProperty, PropertyRow } from './properties.repository';
import type { CompaniesTable, DomainsDb, DomainsTable, PropertiesTable } from './tables';

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
  'd.product_id',
  'd.price_list_id',
  'd.price_id',
  'd.subscription_status',
  'd.subscription_start',
  'd.subscription_end',
] as const;

const joined = (db: Kysely<DomainsDb>) =>
  db.selectFrom('domains as d').innerJoin('properties as p', 'p.id', 'd.property_id').innerJoin('companies as c', 'c.id', 'd.company_id');

export type DomainDetailRow = NonNullable<Awaited<ReturnType<typeof findDomainDetail>>>;

/** What a create writes: the property, the domain, its subdomains and merchant links, and the company unless one is reused. */
export interface NewDomainRows {
  company?: NewCompany;
  property: NewProperty;
  domain: Insertable<DomainsTable>;
  subdomains: { id: string; hostname: string }[];
}

// One statement (data-modifying CTEs), as a create is the hot write path and each round trip
// costs both processes a socket write and a wake-up. Rows are flattened into `<table>.<column>`
// parameters so the statement is compiled once per column set (see precompile). The domain's
// ON CONFLICT leaves the transaction usable, so the existing domain can be named; subdomains and
// merchant links are inserted only with the domain.
const insertNewDomainQuery = precompile((db: Kysely<DomainsDb>, p: Record<string, unknown>) => {
  const company = columnsOf(p, 'company') as NewCompany;
  return sql<{ id: string }>`
    WITH ${Object.keys(company).length > 0 ? sql`new_company AS (${db.insertInto('companies').values(company)}),` : sql``}
    new_property AS (${db.insertInto('properties').values(columnsOf(p, 'property') as NewProperty)}),
    new_domain AS (${db
      .insertInto('domains')
      .values(columnsOf(p, 'domain') as Insertable<DomainsTable>)
      .onConflict((oc) => oc.constraint('domains_partner_hostname_key').doNothing())
      .returning(['id', 'partner_id', 'created_at'])}),
    new_subdomains AS (
      INSERT INTO subdomains (id, partner_id, domain_id, hostname, created_at, updated_at)
      SELECT s.id, d.partner_id, d.id, s.hostname, d.created_at, d.created_at
      FROM new_domain d, UNNEST(${p.subdomain_ids}::uuid[], ${p.subdomain_hostnames}::text[]) AS s(id, hostname)
    ),
    new_links AS (
      INSERT INTO domain_merchants (partner_id, merchant_id, domain_id)
      SELECT d.partner_id, m, d.id FROM new_domain d, UNNEST(${p.merchant_ids}::text[]) AS m
    )
    SELECT id FROM new_domain`;
});

const columnsOf = (p: Record<string, unknown>, table: string) =>
  Object.fromEntries(Object.entries(p).flatMap(([key, value]) => (key.startsWith(`${table}.`) ? [[key.slice(table.length + 1), value]] : [])));
const prefixed = (table: string, row: object) => Object.entries(row).map(([column, value]) => [`${table}.${column}`, value] as const);

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
  ]);
  let inserted: { id: string }[];
  try {
    inserted = await insertNewDomainQuery(db, params);
  } catch (err) {
    rethrowUnique(err, 'SUBDOMAIN.ALREADY_EXISTS', 'The subdomain already exists on this domain.', 'subdomains_domain_hostname_key');
  }
  if (inserted.length > 0) return;
  const [existing] = await domainIdByHostnameQuery(db, { partnerId: domain.partner_id, hostname: domain.hostname });
  throw new AppError('DOMAIN.ALREADY_EXISTS', 'This partner already registered the domain.', existing ? { id: existing.id } : undefined);
}

// The hottest read: compiled once (see precompile).
const domainDetailQuery = precompile((db: Kysely<DomainsDb>, p: { partnerId: string; id: string }) =>
  joined(db).select([...VIEW_COLUMNS, ...DETAIL_COLUMNS]).where('d.id', '=', p.id).where('d.partner_id', '=', p.partnerId),
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
      'd.merchants',
      'd.created_at',
      'd.updated_at',
      'd.activated_at',
    ])
    .select(sql<string[]>`coalesce((SELECT array_agg(s.hostname ORDER BY s.hostname COLLATE "C") FROM subdomains s WHERE s.domain_id = d.id), '{}')`.as('subdomains'))
    .where('d.id', '=', id)
    .where('d.partner_id', '=', partnerId)
    .executeTakeFirstOrThrow();
}
export type DomainStateRow = Awaited<ReturnType<typeof findDomainState>>;

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
  /** Over the domain's copy of its subscription (see subscription.changed). */
  productIds?: number[];
  priceListId?: number;
  subscriptionStatus?: string;
  activeSubscription?: boolean;
  hasSubscription?: boolean;
  createdFrom?: Date;
  createdTo?: Date;
  activatedFrom?: Date;
  activatedTo?: Date;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type Flag = keyof DomainFilters['flags'];
const FLAGS: Flag[] = ['has_scripts', 'has_dsar', 'has_docs', 'has_accessibility', 'display_company', 'display_dpo'];

/** The list query's parameters, each used whole (see precompile); absent filters are undefined. */
type ListParams = Omit<DomainFilters, 'flags' | 'search' | 'companyTradeName'> &
  DomainFilters['flags'] & {
    partnerId: string;
    hostnameLike?: string;
    searchUuid?: string;
    tradeNameLike?: string;
    offset: number;
    limitPlusOne: number;
  };

/**
 * Deferred join: the page of ids comes first, from domains alone (an index-only scan of
 * domains_partner_list when only the partner and activity filter), and only those rows are
 * joined to their property and company. Filters on property or company columns are EXISTS
 * checks, so they never widen the scan that pages. The ids are handed over as an array
 * (`= ANY(ARRAY(...))`): with generic plans PostgreSQL cannot know the page is small, and a
 * joined subquery made it hash-join whole tables (58 instead of 1,400 lists/s measured).
 */
const listQuery = precompile((db: Kysely<DomainsDb>, p: ListParams) => {
  let ids = db.selectFrom('domains as d').select('d.id').where('d.partner_id', '=', p.partnerId).where('d.is_active', '=', p.isActive);
  if (p.status !== undefined) ids = ids.where('d.status', '=', p.status);
  if (p.id !== undefined) ids = ids.where('d.id', '=', p.id);
  if (p.source !== undefined) ids = ids.where('d.source', '=', p.source);
  const flags = FLAGS.filter((flag) => p[flag] !== undefined);
  if (flags.length > 0) {
    ids = ids.where(({ exists, selectFrom }) =>
      exists(flags.reduce((q, flag) => q.where(`p.${flag}` as const, '=', p[flag]!), selectFrom('properties as p').select('p.id').whereRef('p.id', '=', 'd.property_id'))),
    );
  }
  if (p.hostnameLike !== undefined) {
    const { hostnameLike, searchUuid } = p;
    // Served by the trigram index on hostname (see migrations).
    ids = ids.where((eb) =>
      eb.or([eb('d.hostname', 'like', hostnameLike), ...(searchUuid !== undefined ? [eb('d.id', '=', searchUuid), eb('d.property_id', '=', searchUuid)] : [])]),
    );
  }
  const { tradeNameLike, companyIdNumber } = p;
  if (tradeNameLike !== undefined || companyIdNumber !== undefined) {
    ids = ids.where(({ exists, selectFrom }) => {
      let c = selectFrom('companies as c').select('c.id').whereRef('c.id', '=', 'd.company_id');
      // The displayed trade name falls back to the company name (see the presenter).
      if (tradeNameLike !== undefined) c = c.where(sql<string>`coalesce(c.trade_name, c.name)`, 'ilike', tradeNameLike);
      if (companyIdNumber !== undefined) c = c.where('c.id_number', '=', companyIdNumber);
      return exists(c);
    });
  }
  if (p.companyId !== undefined) ids = ids.where('d.company_id', '=', p.companyId);
  if (p.propertyId !== undefined) ids = ids.where('d.property_id', '=', p.propertyId);
  if (p.instanceId !== undefined) ids = ids.where('d.instance_id', '=', p.instanceId);
  if (p.widgetVersion !== undefined) ids = ids.where('d.widget_version', '=', p.widgetVersion);
  // From the (partner, merchant) index: a merchant's few domains, then the other filters on each.
  const { merchantId } = p;
  if (merchantId !== undefined) {
    ids = ids.where('d.id', 'in', (eb) =>
      eb.selectFrom('domain_merchants as m').select('m.domain_id').where('m.partner_id', '=', p.partnerId).where('m.merchant_id', '=', merchantId),
    );
  }
  if (p.referralPartnerId !== undefined) ids = ids.where('d.referral_partner_id', '=', p.referralPartnerId);
  if (p.productIds !== undefined) ids = ids.where(sql<boolean>`d.product_id = ANY(${p.productIds}::integer[])`);
  if (p.priceListId !== undefined) ids = ids.where('d.price_list_id', '=', p.priceListId);
  if (p.subscriptionStatus !== undefined) ids = ids.where('d.subscription_status', '=', p.subscriptionStatus);
  // Values are parameters, never branches: the compiled shape is reused for true and false alike.
  if (p.hasSubscription !== undefined) ids = ids.where(sql<boolean>`(d.subscription_status IS NOT NULL) = ${p.hasSubscription}`);
  if (p.activeSubscription !== undefined) ids = ids.where(sql<boolean>`(coalesce(d.subscription_status, 'INACTIVE') <> 'INACTIVE') = ${p.activeSubscription}`);
  if (p.createdFrom !== undefined) ids = ids.where('d.created_at', '>=', p.createdFrom);
  if (p.createdTo !== undefined) ids = ids.where('d.created_at', '<=', p.createdTo);
  if (p.activatedFrom !== undefined) ids = ids.where('d.activated_at', '>=', p.activatedFrom);
  if (p.activatedTo !== undefined) ids = ids.where('d.activated_at', '<=', p.activatedTo);
  const page = ids.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').offset(p.offset).limit(p.limitPlusOne);
  return joined(db)
    .select(VIEW_COLUMNS)
    .where(sql<boolean>`d.id = ANY(ARRAY(${page}))`)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc');
});

/** One page (limit + 1 rows, to know whether another exists), newest first. */
export async function listDomains(db: Kysely<DomainsDb>, partnerId: string, f: DomainFilters, window: { offset: number; limitPlusOne: number }) {
  const { flags, search, companyTradeName, ...plain } = f;
  return listQuery(db, {
    ...plain,
    ...flags,
    partnerId,
    hostnameLike: search ? `%${likeEscape(search.text.toLowerCase())}%` : undefined,
    searchUuid: search?.uuid,
    tradeNameLike: companyTradeName === undefined ? undefined : `%${likeEscape(companyTradeName)}%`,
    ...window,
  });
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
  const company = Object.keys(changes.company).length > 0
    ? sql`company AS (${db.updateTable('companies').set({ ...changes.company, updated_at: now }).where('id', '=', domain.company_id).where('partner_id', '=', domain.partner_id)}),`
    : sql``;
  const property = Object.keys(changes.settings).length > 0
    ? db.updateTable('properties').set({ ...changes.settings, updated_at: now }).where('id', '=', domain.property_id).where('partner_id', '=', domain.partner_id).returningAll()
    : db.selectFrom('properties').selectAll().where(sql<boolean>`false`);
  const { rows } = await sql<PropertyRow>`
    WITH ${company} touched AS (${db.updateTable('domains').set({ updated_at: now }).where('id', '=', domain.id).where('partner_id', '=', domain.partner_id)})
    ${property}`.execute(db);
  return rows[0];
}

/** Deletes the domain (subdomains cascade). */
export async function deleteDomain(db: Kysely<DomainsDb>, partnerId: string, id: string) {
  await db.deleteFrom('domains').where('id', '=', id).where('partner_id', '=', partnerId).execute();
}

/** The partner's domains among these ids, with what a product change needs (others, and unknown ids, are left out). */
export async function findSubscriptionsOfDomains(db: Kysely<DomainsDb>, partnerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('domains')
    .select(['id', 'subscription_id', 'product_id', 'price_list_id', 'created_at'])
    .where('partner_id', '=', partnerId)
    .where('id', 'in', ids)
    .execute();
}

/** The domain's copy of its subscription, as billing-svc reported it (only the domain holding that subscription). */
type SubscriptionCopy = { id: string; domain_id: string; product_id: number; price_list_id: number; price_id: number; status: string; start_date: string; end_date: string | null };

/** The domains' copies of their subscriptions, as billing-svc reported them (one statement for a batch). */
export async function applySubscriptionStates(db: Kysely<DomainsDb>, states: SubscriptionCopy[]) {
  if (states.length === 0) return;
  const col = <K extends keyof SubscriptionCopy>(k: K) => states.map((s) => s[k]);
  await sql`
    UPDATE domains d
       SET product_id = v.product_id, price_list_id = v.price_list_id, price_id = v.price_id,
           subscription_status = v.status, subscription_start = v.start_date, subscription_end = v.end_date
      FROM UNNEST(${col('domain_id')}::uuid[], ${col('id')}::uuid[], ${col('product_id')}::int[], ${col('price_list_id')}::int[], ${col('price_id')}::int[],
                  ${col('status')}::text[], ${col('start_date')}::timestamptz[], ${col('end_date')}::timestamptz[])
           AS v(domain_id, id, product_id, price_list_id, price_id, status, start_date, end_date)
     WHERE d.id = v.domain_id AND d.subscription_id = v.id`.execute(db);
}

import { isUuid, type ListDomainsQuery } from '@platform/contracts';
import { listPage, notFound } from '@platform/http';
import { listDomains as listDomainRows, type DomainFilters } from '../db/domain-list.repository';
import { findDomainDetail } from '../db/domain-reads.repository';
import type { DomainsContext } from '../../context';
import { assertDomainId } from './domain-rules';

export async function getDomain(ctx: DomainsContext, partnerId: string, domainId: string) {
  const row = await findDomainDetail(ctx.db, partnerId, assertDomainId(domainId));
  if (!row) throw notFound('domain');
  return row;
}

/** One page of the partner's domains; subscription filters read the domain's copy of its subscription. */
export async function listDomains(ctx: DomainsContext, partnerId: string, query: ListDomainsQuery) {
  const filters = toFilters(query);
  return listPage(query, async (window) => (filters ? listDomainRows(ctx.db, partnerId, filters, window) : []));
}

/** Query -> repository filters; undefined when a filter can match nothing (e.g. a non-uuid id). */
function toFilters(q: ListDomainsQuery): DomainFilters | undefined {
  const uuidOrNone = (v: string | undefined) => (v === undefined ? null : isUuid(v) ? v.toLowerCase() : undefined);
  const id = uuidOrNone(q.id);
  const companyId = uuidOrNone(q.instance_company_id);
  const propertyId = uuidOrNone(q.instance_property_id);
  if (id === undefined || companyId === undefined || propertyId === undefined) return undefined;
  // Product and price list ids are whole numbers: any other value matches no domain.
  const productIds = q.product_id?.map((v) => (/^\d{1,9}$/.test(v) ? Number(v) : NaN));
  const priceListId =
    q.price_list_id === undefined ? undefined : /^\d{1,9}$/.test(q.price_list_id) ? Number(q.price_list_id) : NaN;
  if (productIds?.some(Number.isNaN) && productIds.every(Number.isNaN)) return undefined;
  if (Number.isNaN(priceListId)) return undefined;

  const flags: DomainFilters['flags'] = {};
  for (const flag of [
    'has_scripts',
    'has_dsar',
    'has_docs',
    'has_accessibility',
    'display_company',
    'display_dpo',
  ] as const) {
    if (q[flag] !== undefined) flags[flag] = q[flag];
  }
  const date = (v: string | undefined) => (v === undefined ? undefined : new Date(v));
  return {
    // INACTIVE domains are listed only when asked for (is_active=false or status=INACTIVE).
    isActive: q.is_active ?? (q.status ? q.status !== 'INACTIVE' : true),
    status: q.status,
    search:
      q.search === undefined
        ? undefined
        : { text: q.search, ...(isUuid(q.search) ? { uuid: q.search.toLowerCase() } : {}) },
    id: id ?? undefined,
    source: q.source,
    flags,
    companyTradeName: q.company_trade_name,
    companyIdNumber: q.company_id_number,
    companyId: companyId ?? undefined,
    propertyId: propertyId ?? undefined,
    instanceId: q.instance_id,
    widgetVersion: q.widget_version,
    merchantId: q.merchant_id,
    referralPartnerId: q.referral_partner_id,
    productIds: productIds?.filter((v) => !Number.isNaN(v)),
    priceListId,
    subscriptionStatus: q.subscription_status,
    activeSubscription: q.is_active_subscription,
    hasSubscription: q.has_subscription,
    createdFrom: date(q.created_at_start),
    createdTo: date(q.created_at_end),
    activatedFrom: date(q.activated_at_start),
    activatedTo: date(q.activated_at_end),
  };
}

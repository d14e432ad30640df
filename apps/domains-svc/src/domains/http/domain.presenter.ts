import {
  domainCreatedSchema,
  type Company,
  type Domain,
  type DomainCreated,
  type DomainDetail,
  type DomainSource,
  type DomainStatus,
  type NoticeType,
  type Product,
  type Subdomain,
} from '@platform/contracts';
import type { DomainListRow } from '../db/domain-list.repository';
import type { DomainDetailRow } from '../db/domain-reads.repository';
import type { InstanceSettings } from '../../context';
import { PRIVACY_CENTER_LINK, PRIVACY_DNT_LINK, widgetScript } from '../domain/widget-snippet';

/** Shapes rows into the spec's wire shapes (types come from the contract's zod schemas). */

const CREATED_FIELDS = Object.keys(domainCreatedSchema.shape) as (keyof DomainCreated)[];

/** The create answer: the spec's create fields of the full domain shape. */
export function toDomainCreated(row: DomainListRow, s: InstanceSettings): DomainCreated {
  const domain = toDomain(row, s);
  return Object.fromEntries(CREATED_FIELDS.map((field) => [field, domain[field]])) as DomainCreated;
}

/** The list's hot path: one literal in the wire order (no spreads: they cost ~10% of a list's CPU). */
export function toDomain(row: DomainListRow, s: InstanceSettings): Domain {
  return {
    id: row.id,
    hostname: row.hostname,
    status: row.status as DomainStatus,
    instance_property_id: row.property_id,
    instance_company_id: row.company_id,
    updated_at: row.updated_at.toISOString(),
    created_at: row.created_at.toISOString(),
    is_active: row.is_active,
    email: row.owner_email,
    // "Trade name if different": without one the legal name is the trade name.
    company_trade_name: row.company_trade_name ?? row.company_name,
    company_id_number: row.company_id_number ?? '',
    has_scripts: row.has_scripts,
    has_dsar: row.has_dsar,
    has_docs: row.has_docs,
    has_accessibility: row.has_accessibility,
    display_company: row.display_company,
    display_dpo: row.display_dpo,
    default_notice_type: row.default_notice_type as NoticeType,
    source: row.source as DomainSource,
    partner_id: row.partner_id,
    privacy_widget: widgetScript(s.widgetBaseUrl, row.property_id),
    privacy_center_link: PRIVACY_CENTER_LINK,
    privacy_dnt_link: PRIVACY_DNT_LINK,
    activated_at: row.activated_at ? row.activated_at.toISOString() : null,
    has_vendor_logo: row.has_vendor_logo,
    widget_version: row.widget_version,
    instance_id: row.instance_id,
    system_segment_id: s.systemSegmentId,
    merchants: row.merchants,
    instance: { id: s.instance.id, name: s.instance.name, hostname: s.instance.hostname },
  };
}

export function toDomainDetail(row: DomainDetailRow, s: InstanceSettings, catalogue: readonly Product[]): DomainDetail {
  // Appending keeps the wire order (Domain fields, then property, subscription) without a copy.
  return Object.assign(toDomain(row, s), {
    property: {
      id: row.property_id,
      name: row.property_name,
      company: toCompany({
        id: row.company_id,
        name: row.company_name,
        email: row.company_email,
        country: row.country,
        city: row.city,
        address: row.address,
        postal_code: row.postal_code,
        phone_number: row.phone_number,
        owner_id: row.owner_id,
        owner_email: row.owner_email,
        owner_first_name: row.owner_first_name,
        owner_last_name: row.owner_last_name,
      }),
    },
    subscription: subscriptionOf(row, catalogue),
  });
}

/** The spec's Company from the company's columns (absent texts as ''). */
export function toCompany(c: {
  id: string;
  name: string;
  email: string;
  country: string | null;
  city: string | null;
  address: string | null;
  postal_code: string | null;
  phone_number: string | null;
  owner_id: string;
  owner_email: string;
  owner_first_name: string | null;
  owner_last_name: string | null;
}): Company {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    address: {
      country: c.country ?? '',
      city: c.city ?? '',
      address: c.address ?? '',
      postal_code: c.postal_code ?? '',
      phone_number: c.phone_number ?? '',
    },
    owner: {
      id: c.owner_id,
      email: c.owner_email,
      first_name: c.owner_first_name ?? '',
      last_name: c.owner_last_name ?? '',
    },
  };
}

export function toSubdomain(
  row: { id: string; domain_id: string; hostname: string; created_at: Date; updated_at: Date },
  s: InstanceSettings,
): Subdomain {
  return {
    id: row.id,
    hostname: row.hostname,
    instance_domain_id: row.domain_id,
    domain_id: row.domain_id,
    instance_id: String(s.instance.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The domain's subscription as billing-svc last reported it, its price named from billing-svc's catalogue. */
function subscriptionOf(row: DomainDetailRow, catalogue: readonly Product[]): DomainDetail['subscription'] {
  if (row.subscription_status === null || row.subscription_start === null) return null;
  const product = catalogue.find((p) => p.id === row.product_id);
  const price = product?.prices.find((p) => p.id === row.price_id);
  if (!product || !price) return null;
  return {
    id: row.subscription_id,
    status: row.subscription_status as NonNullable<DomainDetail['subscription']>['status'],
    start_date: row.subscription_start.toISOString(),
    end_date: row.subscription_end?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    price: {
      id: price.id,
      frequency: price.frequency,
      currency: price.currency,
      price_amount: price.price_amount,
      price_list: price.price_list,
      product: { id: product.id, type: product.type, name: product.name },
    },
  };
}

import { randomUUID } from 'node:crypto';
import {
  domainCreatedEvent,
  type CatalogueResolution,
  type CreateDomainBody,
  type DomainCompany,
  type DomainSource,
  type DomainState,
  type DomainStatus,
  type EventPayload,
  type ScanRequester,
} from '@platform/contracts';
import type { NewCompany } from '../db/companies.repository';
import type { DomainListRow } from '../db/domain-list.repository';
import type { NewDomainRows } from '../db/domain-writes.repository';
import type { OwnerMailRequest } from '../mail/owner-mail';
import { domainCompany, domainEntityData } from '../events/domain-events.writer';
import type { InstanceSettings } from '../../context';

export type ChosenProduct = Extract<CatalogueResolution, { ok: true }>;

/** What a create decided before it touches the database: the request, its ids, time, status and product. */
export interface NewDomainPlan {
  partnerId: string;
  /** PORTAL when a signed-in portal user creates it, API for an API key. */
  source: DomainSource;
  body: CreateDomainBody;
  settings: InstanceSettings;
  product: ChosenProduct;
  now: Date;
  ids: { domain: string; property: string; subscription: string };
  status: DomainStatus;
  merchants: string[];
  /** The scan the create queues in its own statement (actions SCAN and SCAN_INVITE, or as asked); none for CREATE_SILENT. */
  scan: ScanRequester | undefined;
}

/** The company a new domain belongs to, as its answer and events show it (reused or new). */
interface CompanyBasics extends Omit<DomainCompany, 'name' | 'trade_name'> {
  id: string;
  name: string;
  trade_name: string | null;
  id_number: string | null;
  owner_email: string;
}

export function planNewDomain(
  partnerId: string,
  body: CreateDomainBody,
  settings: InstanceSettings,
  product: ChosenProduct,
  now = new Date(),
  source: DomainSource = 'API',
  scan?: ScanRequester,
): NewDomainPlan {
  return {
    partnerId,
    source,
    body,
    settings,
    product,
    now,
    ids: { domain: randomUUID(), property: randomUUID(), subscription: randomUUID() },
    // Every create starts NEW (spec); SCAN_INVITE is invited once its scan ends (scan-completion.ts).
    status: 'NEW',
    merchants: body.merchant_id ? [body.merchant_id] : [],
    scan: scan ?? (body.action === 'SCAN' || body.action === 'SCAN_INVITE' ? body.action : undefined),
  };
}

const widgetFlags = (body: CreateDomainBody) => ({
  has_scripts: body.has_scripts,
  has_dsar: body.has_dsar,
  has_docs: body.has_docs,
  has_accessibility: body.has_accessibility,
  display_dpo: body.display_dpo,
  display_company: body.display_company,
});

/** A company made from the request (company_setup, or no company of that name yet). */
export function newCompany({ partnerId, body, now }: NewDomainPlan): NewCompany & CompanyBasics {
  return {
    id: randomUUID(),
    name: body.company_name,
    trade_name: body.company_trade_name ?? null,
    id_number: body.company_id_number ?? null,
    owner_email: body.account_email,
    partner_id: partnerId,
    email: body.account_email,
    vat_number: body.vat_number ?? null,
    registration_number: body.registration_number ?? null,
    country: body.country ?? null,
    state: body.state ?? null,
    city: body.city ?? null,
    address: body.address ?? null,
    address_2: body.address_2 ?? null,
    postal_code: body.postal_code ?? null,
    phone_number: body.phone_number ?? null,
    owner_id: randomUUID(),
    owner_first_name: body.account_first_name ?? null,
    owner_last_name: body.account_last_name ?? null,
    criterias: body.criterias ?? [],
    sector_id: body.sector_id ?? null,
    industry_id: body.industry_id ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** The property, domain, subdomains and queued scan a create inserts (the company only when it is new). */
export function newDomainRows(
  plan: NewDomainPlan,
  company: CompanyBasics,
  created: NewCompany | undefined,
): NewDomainRows {
  const { partnerId, body, now, ids, product, settings } = plan;
  const property: NewDomainRows['property'] = {
    id: ids.property,
    partner_id: partnerId,
    company_id: company.id,
    name: body.domain,
    ...widgetFlags(body),
    ...(body.primary_color ? { primary_color: body.primary_color } : {}),
    default_notice_type: body.default_notice_type,
    created_at: now,
    updated_at: now,
  };
  const domain: NewDomainRows['domain'] = {
    id: ids.domain,
    partner_id: partnerId,
    company_id: company.id,
    property_id: ids.property,
    hostname: body.domain,
    status: plan.status,
    is_active: true,
    source: plan.source,
    action: body.action,
    instance_id: settings.instance.id,
    widget_version: settings.widgetVersion,
    merchants: plan.merchants,
    referral_partner_id: body.referral_partner_id ?? null,
    product_code: product.product.code,
    price_list_code: product.priceList.code,
    subscription_id: ids.subscription,
    // The subscription billing-svc opens from domain.created, shown at once (read-your-writes);
    // its subscription.changed later confirms it (same state) or brings newer ones.
    product_id: product.product.id,
    price_list_id: product.priceList.id,
    price_id: product.price.id,
    subscription_status: 'ACTIVE',
    subscription_start: now,
    created_at: now,
    updated_at: now,
  };
  const subdomains = body.subdomains.map((hostname) => ({ id: randomUUID(), hostname }));
  return { company: created, property, domain, subdomains, scan: plan.scan };
}

/** The new domain as the create answers it (the row a read would find, without reading it). */
export function createdView(
  { partnerId, source, body, now, ids, status, merchants, settings }: NewDomainPlan,
  company: CompanyBasics,
): DomainListRow {
  return {
    id: ids.domain,
    partner_id: partnerId,
    hostname: body.domain,
    status,
    is_active: true,
    source,
    instance_id: settings.instance.id,
    widget_version: settings.widgetVersion,
    merchants,
    created_at: now,
    updated_at: now,
    activated_at: null,
    property_id: ids.property,
    company_id: company.id,
    ...widgetFlags(body),
    has_vendor_logo: true,
    default_notice_type: body.default_notice_type,
    company_name: company.name,
    company_trade_name: company.trade_name,
    company_id_number: company.id_number,
    owner_email: company.owner_email,
  };
}

/** domain.created (its scan, if any, is queued by the create's own statement). */
export function createdEvents(plan: NewDomainPlan, view: DomainListRow): EventPayload[] {
  const { body, ids, status, product } = plan;
  return [
    domainCreatedEvent(
      {
        domain_id: ids.domain,
        domain: body.domain,
        action: body.action,
        source: plan.source,
        status,
        country: body.country ?? '',
        state: body.state,
        city: body.city,
        address: body.address,
        postal_code: body.postal_code,
        vat_number: body.vat_number,
        product_id: product.product.id,
        price_list_id: product.priceList.id,
        ...widgetFlags(body),
        send_intro: body.send_intro,
        company_name: body.company_name,
        account_email: body.account_email,
        company_trade_name: body.company_trade_name,
        account_first_name: body.account_first_name,
        account_last_name: body.account_last_name,
        merchant_id: body.merchant_id,
        subscription_id: ids.subscription,
      },
      domainEntityData(view, plan.settings),
    ),
  ];
}

/** The new domain's whole state, as domain.changed carries it to projections. */
export function createdState(
  { source, body, ids, status, merchants, now }: NewDomainPlan,
  company: CompanyBasics,
): DomainState {
  return {
    id: ids.domain,
    hostname: body.domain,
    subdomains: [...body.subdomains].sort(),
    status,
    is_active: true,
    source,
    property_id: ids.property,
    company_id: company.id,
    company_name: company.name,
    owner_email: company.owner_email,
    merchants,
    // merchants-svc resolves the merchant_id to its merchant (made if the partner has none).
    merchant_links: merchants.map((merchantId) => ({ merchant_id: merchantId, id: null })),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    activated_at: null,
    company: domainCompany(company),
  };
}

/** The owner e-mails a create sends: the intro when asked (a SCAN_INVITE's invitation follows its scan). */
export function welcomeMails({ body }: NewDomainPlan): OwnerMailRequest[] {
  return body.send_intro ? [{ kind: 'INTRO', queueKind: 'intro' }] : [];
}

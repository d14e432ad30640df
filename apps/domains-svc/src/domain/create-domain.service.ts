import { randomUUID } from 'node:crypto';
import {
  domainCreatedEvent,
  resolveProductCodes,
  scanRequestedEvent,
  type CreateDomainBody,
  type DomainStatus,
  type EventPayload,
} from '@platform/contracts';
import { validationError } from '@platform/http';
import { inTransaction } from '@platform/db';
import { findCompanyByName, lockCompanyName } from '../db/companies.repository';
import { insertNewDomain, type DomainListRow, type NewDomainRows } from '../db/domains.repository';
import { enqueueMail, type QueuedMail } from '../db/mail-queue.repository';
import { domainEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { Caller, DomainsContext } from './context';
import { assertRequiredFields } from './domain-rules';
import { inviteMail, introMail } from './mail-templates';
import { widgetScript } from './widget';

/**
 * Creates (or reuses) the company, the property, the domain and its subdomains, and writes
 * domain.created (+ scan.requested) and any e-mail to the outbox/mail queue in one transaction.
 */
export async function createDomain(ctx: DomainsContext, caller: Caller, body: CreateDomainBody): Promise<DomainListRow> {
  assertRequiredFields(body, caller.requiredFields);
  const catalogue = await chooseProduct(ctx, caller, body);

  const { partnerId } = caller;
  const now = new Date();
  const ids = { domain: randomUUID(), property: randomUUID(), subscription: randomUUID() };
  const status: DomainStatus = body.action === 'SCAN_INVITE' ? 'INVITED' : 'NEW';
  const merchants = body.merchant_id ? [body.merchant_id] : [];

  const { row, messages } = await inTransaction(ctx.db, async (trx) => {
    if (!body.company_setup) await lockCompanyName(trx, partnerId, body.company_name);
    const existing = body.company_setup ? undefined : await findCompanyByName(trx, partnerId, body.company_name);
    const company = existing ?? {
      id: randomUUID(),
      name: body.company_name,
      trade_name: body.company_trade_name ?? null,
      id_number: body.company_id_number ?? null,
      owner_email: body.account_email,
    };
    const newCompany: NewDomainRows['company'] = existing
      ? undefined
      : {
          ...company,
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
    const flags = {
      has_scripts: body.has_scripts,
      has_dsar: body.has_dsar,
      has_docs: body.has_docs,
      has_accessibility: body.has_accessibility,
      display_dpo: body.display_dpo,
      display_company: body.display_company,
    };
    const property: NewDomainRows['property'] = {
      id: ids.property,
      partner_id: partnerId,
      company_id: company.id,
      name: body.domain,
      ...flags,
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
      status,
      is_active: true,
      source: 'API',
      action: body.action,
      instance_id: ctx.settings.instance.id,
      widget_version: ctx.settings.widgetVersion,
      merchants,
      referral_partner_id: body.referral_partner_id ?? null,
      product_code: catalogue.product.code,
      price_list_code: catalogue.priceList.code,
      subscription_id: ids.subscription,
      // The subscription billing-svc opens from domain.created, shown at once (read-your-writes);
      // its subscription.changed later confirms it (same state) or brings newer ones.
      product_id: catalogue.product.id,
      price_list_id: catalogue.priceList.id,
      price_id: catalogue.price.id,
      subscription_status: 'ACTIVE',
      subscription_start: now,
      created_at: now,
      updated_at: now,
    };
    const subdomains = body.subdomains.map((hostname) => ({ id: randomUUID(), hostname }));
    await insertNewDomain(trx, { company: newCompany, property, domain, subdomains });

    const view: DomainListRow = {
      id: ids.domain,
      partner_id: partnerId,
      hostname: body.domain,
      status,
      is_active: true,
      source: 'API',
      instance_id: ctx.settings.instance.id,
      widget_version: ctx.settings.widgetVersion,
      merchants,
      created_at: now,
      updated_at: now,
      activated_at: null,
      property_id: ids.property,
      company_id: company.id,
      ...flags,
      has_vendor_logo: true,
      default_notice_type: body.default_notice_type,
      company_name: company.name,
      company_trade_name: company.trade_name,
      company_id_number: company.id_number,
      owner_email: company.owner_email,
    };

    const events: EventPayload[] = [
      domainCreatedEvent(
        {
          domain_id: ids.domain,
          domain: body.domain,
          action: body.action,
          source: 'API',
          status,
          country: body.country ?? '',
          state: body.state,
          city: body.city,
          address: body.address,
          postal_code: body.postal_code,
          vat_number: body.vat_number,
          product_id: catalogue.product.id,
          price_list_id: catalogue.priceList.id,
          ...flags,
          send_intro: body.send_intro,
          company_name: body.company_name,
          account_email: body.account_email,
          company_trade_name: body.company_trade_name,
          account_first_name: body.account_first_name,
          account_last_name: body.account_last_name,
          merchant_id: body.merchant_id,
          subscription_id: ids.subscription,
        },
        domainEntityData(view, ctx.settings),
      ),
    ];
    if (body.action !== 'CREATE_SILENT') {
      const invite = body.action === 'SCAN_INVITE';
      events.push(scanRequestedEvent({ domain_id: ids.domain, domain: body.domain, property_id: ids.property, action: body.action, invite }));
    }
    const messages = await writeDomainEvents(trx, partnerId, ids.domain, events, {
      kind: 'created',
      state: {
        id: ids.domain,
        hostname: body.domain,
        subdomains: [...body.subdomains].sort(),
        status,
        is_active: true,
        source: 'API',
        property_id: ids.property,
        company_id: company.id,
        company_name: company.name,
        owner_email: company.owner_email,
        merchants,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        activated_at: null,
      },
    });

    const mailInput = {
      partnerId,
      to: company.owner_email,
      hostname: body.domain,
      widgetSnippet: widgetScript(ctx.settings.widgetBaseUrl, ids.property),
      firstName: body.account_first_name,
    };
    const mails: QueuedMail[] = [];
    if (status === 'INVITED') mails.push(inviteMail(mailInput));
    if (body.send_intro) mails.push(introMail(mailInput));
    await enqueueMail(trx, mails);
    return { row: view, messages };
  });
  // The merchant (created if the partner has none with this id) shows the domain on the very next read.
  if (merchants.length > 0) await ctx.merchants.push(messages);
  return row;
}

/**
 * The subscription's product and price list: the body's codes (an unknown one is a 400), else the
 * merchant's defaults, else the partner's, else billing's entry product (its catalogue lists it
 * first). A default that no longer resolves is skipped rather than failing the partner's call.
 */
async function chooseProduct(ctx: DomainsContext, caller: Caller, body: CreateDomainBody) {
  const products = await ctx.catalogue.products();
  if (body.product !== undefined) {
    const given = resolveProductCodes(body.product, body.price_list, products);
    if (!given.ok) throw validationError([{ path: `body.${given.field}`, message: given.message }]);
    return given;
  }
  if (body.price_list !== undefined && !products.some((p) => p.prices.some((price) => price.price_list.code === body.price_list))) {
    throw validationError([{ path: 'body.price_list', message: `unknown price list code "${body.price_list}"` }]);
  }
  const merchant = body.merchant_id ? await ctx.merchants.defaultsOf(caller.partnerId, body.merchant_id) : undefined;
  for (const preferred of [merchant, caller.defaults]) {
    if (!preferred?.product) continue;
    const chosen = resolveProductCodes(preferred.product, body.price_list ?? preferred.priceList, products);
    if (chosen.ok) return chosen;
    const productOnly = resolveProductCodes(preferred.product, body.price_list, products);
    if (productOnly.ok) return productOnly;
  }
  const fallback = resolveProductCodes(undefined, body.price_list, products);
  if (!fallback.ok) throw validationError([{ path: `body.${fallback.field}`, message: fallback.message }]);
  return fallback;
}

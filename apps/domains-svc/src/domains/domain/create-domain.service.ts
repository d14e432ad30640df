import { resolveProductCodes, type CreateDomainBody, type ScanRequester } from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { validationError } from '@platform/http';
import { findCompanyByName, lockCompanyName } from '../db/companies.repository';
import type { DomainListRow } from '../db/domain-list.repository';
import { insertNewDomain } from '../db/domain-writes.repository';
import { enqueueMail } from '@platform/mail';
import { ownerMailsOf } from '../mail/owner-mail';
import type { DomainsDb } from '../../db/tables';
import { writeDomainEvents } from '../events/domain-events.writer';
import type { Caller, DomainsContext } from '../../context';
import { assertRequiredFields } from './domain-rules';
import {
  createdEvents,
  createdState,
  createdView,
  newCompany,
  newDomainRows,
  planNewDomain,
  welcomeMails,
  type ChosenProduct,
  type NewDomainPlan,
} from './new-domain';

/**
 * Creates (or reuses) the company, the property, the domain and its subdomains, queues its scan
 * (actions SCAN, SCAN_INVITE: the scanner role runs it) and writes domain.created and any e-mail
 * to the outbox/mail queue, in one transaction. `options.scan` queues a scan for another requester
 * than the action's (an import's ENROLL_SCAN: scanned, no report).
 */
export async function createDomain(
  ctx: DomainsContext,
  caller: Caller,
  body: CreateDomainBody,
  options: { scan?: ScanRequester } = {},
): Promise<DomainListRow> {
  assertRequiredFields(body, caller.requiredFields);
  const product = await chooseProduct(ctx, caller, body);
  const plan = planNewDomain(caller.partnerId, body, ctx.settings, product, new Date(), caller.source, options.scan);
  return inTransaction(ctx.db, async (trx) => {
    const { company, created } = await ensureCompany(trx, plan);
    await insertNewDomain(trx, newDomainRows(plan, company, created));
    const view = createdView(plan, company);
    const messages = await writeDomainEvents(trx, plan.partnerId, plan.ids.domain, createdEvents(plan, view), {
      kind: 'created',
      state: createdState(plan, company),
    });
    await enqueueMail<DomainsDb>(
      trx,
      await ownerMailsOf(trx, plan.settings, plan.partnerId, plan.ids.domain, welcomeMails(plan)),
    );
    // The merchant (created if the partner has none with this id) shows the domain on the very next read.
    if (plan.merchants.length > 0) await ctx.merchants.pushOnCommit(trx, messages);
    return view;
  });
}

/**
 * The company of the new domain: with company_setup a new one; else the partner's company of that
 * name, made when there is none (the name's lock makes concurrent creates agree on one).
 */
async function ensureCompany(trx: Kysely<DomainsDb>, plan: NewDomainPlan) {
  const { partnerId, body } = plan;
  if (!body.company_setup) {
    await lockCompanyName(trx, partnerId, body.company_name);
    const existing = await findCompanyByName(trx, partnerId, body.company_name);
    if (existing) return { company: existing, created: undefined };
  }
  const created = newCompany(plan);
  return { company: created, created };
}

/**
 * The subscription's product and price list: the body's codes (an unknown one is a 400), else the
 * merchant's defaults, else the partner's, else billing's entry product (its catalogue lists it
 * first). A default that no longer resolves is skipped rather than failing the partner's call.
 */
async function chooseProduct(ctx: DomainsContext, caller: Caller, body: CreateDomainBody): Promise<ChosenProduct> {
  const products = await ctx.catalogue.products();
  if (body.product !== undefined) {
    const given = resolveProductCodes(body.product, body.price_list, products);
    if (!given.ok) throw validationError([{ path: `body.${given.field}`, message: given.message }]);
    return given;
  }
  if (
    body.price_list !== undefined &&
    !products.some((p) => p.prices.some((price) => price.price_list.code === body.price_list))
  ) {
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

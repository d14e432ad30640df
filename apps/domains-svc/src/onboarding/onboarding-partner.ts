import type { InternalCaller } from '@platform/auth';
import type { DomainSource, OnboardingPartner } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Caller } from '../context';
import type { DomainsDb } from '../db/tables';

/**
 * The partner a widget acts for, as the gateway named it (it owns the partner's settings): the
 * create's caller (required fields, default product and price list, the widget as source) and
 * the caller whose name owner e-mails sign with.
 */
export function onboardingCaller(partner: OnboardingPartner, source: DomainSource) {
  const defaults = {
    ...(partner.default_product ? { product: partner.default_product } : {}),
    ...(partner.default_price_list ? { priceList: partner.default_price_list } : {}),
  };
  const caller: Caller = {
    partnerId: partner.id,
    requiredFields: partner.required_fields,
    source,
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
  };
  const internal: InternalCaller = {
    partnerId: partner.id,
    keyId: 'gateway:onboarding-widgets',
    permissions: [],
    requiredFields: partner.required_fields,
    partnerName: partner.name,
  };
  return { caller, internal };
}

/** The partner's domain of this hostname, if it has one. */
export async function findPartnerDomainId(
  db: Kysely<DomainsDb>,
  partnerId: string,
  hostname: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('partner_id', '=', partnerId)
    .where('hostname', '=', hostname)
    .executeTakeFirst();
  return row?.id;
}

import { inTransaction } from '@platform/db';
import {
  type InstanceCompany,
  type InstanceProperty,
  type InstanceQuery,
  type UpdateInstanceCompanyBody,
  type TextOverrides,
  type UpdateInstancePropertyBody,
  isLanguage,
} from '@platform/contracts';
import { AppError, notFound } from '@platform/http';
import type { Kysely } from 'kysely';
import type { DomainsContext } from '../context';
import type { DomainsDb } from '../db/tables';
import { assertDomainId } from '../domains/domain/domain-rules';
import { applySettingChanges } from '../domains/domain/update-domain.service';
import { propertyEntityData } from '../domains/events/domain-events.writer';
import { toCompany } from '../domains/http/domain.presenter';
import {
  findCompany,
  findCustomerDomain,
  findMerchantDomainIds,
  findProperty,
  writeTextOverrides,
  type CompanyRow,
  type CustomerDomain,
  type PropertyRow,
} from './instance.repository';

/**
 * The event's property data and what is not in the event: how long a choice stands, the widget's
 * language and texts, the regime and the Consent Mode switches.
 */
const toInstanceProperty = (row: PropertyRow): InstanceProperty => ({
  ...propertyEntityData(row),
  consent_max_age_days: row.consent_max_age_days,
  default_language: isLanguage(row.default_language) ? row.default_language : 'en',
  text_overrides: (row.text_overrides ?? {}) as TextOverrides,
  regime: row.regime as InstanceProperty['regime'],
  ads_data_redaction: row.ads_data_redaction,
  url_passthrough: row.url_passthrough,
});

/**
 * The domain the query names: domain_id, or the one domain linked to merchant_id (several: 409
 * MERCHANT.AMBIGUOUS listing them, so the partner names one). Another partner's: 404.
 */
async function customerDomain(
  db: Kysely<DomainsDb>,
  partnerId: string,
  q: InstanceQuery,
  lock = false,
): Promise<CustomerDomain> {
  let id: string;
  if (q.domain_id !== undefined) {
    id = assertDomainId(q.domain_id);
  } else {
    const ids = await findMerchantDomainIds(db, partnerId, q.merchant_id ?? '');
    if (ids.length === 0) throw notFound('merchant');
    if (ids.length > 1) throw new AppError('MERCHANT.AMBIGUOUS', undefined, { domain_ids: ids });
    id = ids[0];
  }
  const domain = await findCustomerDomain(db, partnerId, id, lock);
  if (!domain) throw notFound('domain');
  return domain;
}

/** The spec's Company and the DPO (null when neither its name nor its e-mail is set). */
function toInstanceCompany(row: CompanyRow): InstanceCompany {
  const dpo = row.dpo_name === null && row.dpo_email === null ? null : { name: row.dpo_name, email: row.dpo_email };
  return { ...toCompany(row), dpo };
}

export async function getInstanceCompany(ctx: Pick<DomainsContext, 'db'>, partnerId: string, q: InstanceQuery) {
  const domain = await customerDomain(ctx.db, partnerId, q);
  return toInstanceCompany(await findCompany(ctx.db, partnerId, domain.company_id));
}

/** The body's fields as company columns (the spec's Company nests address and owner; `dpo: null` clears both). */
function companyColumns(body: UpdateInstanceCompanyBody): Partial<Omit<CompanyRow, 'id' | 'owner_id' | 'owner_email'>> {
  return {
    dpo_name: body.dpo === null ? null : body.dpo?.name,
    dpo_email: body.dpo === null ? null : body.dpo?.email,
    name: body.name,
    email: body.email,
    country: body.address?.country,
    city: body.address?.city,
    address: body.address?.address,
    postal_code: body.address?.postal_code,
    phone_number: body.address?.phone_number,
    owner_first_name: body.owner?.first_name,
    owner_last_name: body.owner?.last_name,
  };
}

/** Only the fields whose value differs from the current row (an unchanged PUT writes and emits nothing). */
function changedFields<T extends object>(current: T, wanted: Partial<T>) {
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(wanted)) {
    if (value !== undefined && value !== current[field as keyof T]) changes[field] = value;
  }
  return changes;
}

export async function updateInstanceCompany(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  q: InstanceQuery,
  body: UpdateInstanceCompanyBody,
): Promise<InstanceCompany> {
  return inTransaction(ctx.db, async (trx) => {
    const domain = await customerDomain(trx, partnerId, q, true);
    const current = await findCompany(trx, partnerId, domain.company_id);
    // A DPO change takes the company's path too: domain.changed for each of the company's domains.
    const changes = changedFields(current, companyColumns(body)) as Record<string, string | null>;
    await applySettingChanges(trx, domain, { company: changes, settings: {} });
    return toInstanceCompany({ ...current, ...changes });
  });
}

export async function getInstanceProperty(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  q: InstanceQuery,
): Promise<InstanceProperty> {
  const domain = await customerDomain(ctx.db, partnerId, q);
  return toInstanceProperty(await findProperty(ctx.db, partnerId, domain.property_id));
}

/** A change goes through the domain update's path: property.updated lists each changed field. */
export async function updateInstanceProperty(
  ctx: Pick<DomainsContext, 'db'>,
  partnerId: string,
  q: InstanceQuery,
  body: UpdateInstancePropertyBody,
): Promise<InstanceProperty> {
  return inTransaction(ctx.db, async (trx) => {
    const domain = await customerDomain(trx, partnerId, q, true);
    const { text_overrides: overrides, ...settings } = body;
    // The overrides are the widget's alone: written as a whole, never in property.updated (its data is the spec's).
    const current =
      overrides === undefined
        ? await findProperty(trx, partnerId, domain.property_id)
        : await writeTextOverrides(trx, partnerId, domain.property_id, overrides);
    const changes = changedFields(current, settings) as Record<string, string | boolean | number>;
    const updated = await applySettingChanges(trx, domain, { company: {}, settings: changes });
    return toInstanceProperty(updated ?? current);
  });
}

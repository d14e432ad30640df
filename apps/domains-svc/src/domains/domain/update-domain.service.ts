import { inTransaction } from '@platform/db';
import { propertyUpdatedEvent, type UpdateDomainBody } from '@platform/contracts';
import { notFound } from '@platform/http';
import { findCompanyDomainIds, findDomainForUpdate } from '../db/domain-reads.repository';
import { updateDomainSettings } from '../db/domain-writes.repository';
import { propertyEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from '../../context';
import type { DomainsDatabase } from '../../db/tables';
import { assertDomainId } from './domain-rules';

const COMPANY_FIELDS = {
  company_name: 'name',
  company_trade_name: 'trade_name',
  company_id_number: 'id_number',
  country: 'country',
  state: 'state',
  city: 'city',
  address: 'address',
  address_2: 'address_2',
  postal_code: 'postal_code',
} as const;

/** Widget settings of the property; a change of any of them is announced with property.updated. */
const WIDGET_SETTINGS = [
  'has_scripts',
  'has_dsar',
  'has_docs',
  'has_accessibility',
  'display_dpo',
  'display_company',
  'primary_color',
  'default_notice_type',
] as const;

/** Updates company and widget settings; property.updated only when a widget setting really changed. */
export async function updateDomain(ctx: DomainsContext, partnerId: string, domainId: string, body: UpdateDomainBody) {
  const id = assertDomainId(domainId);
  return inTransaction(ctx.db, async (trx) => {
    const domain = await findDomainForUpdate(trx, partnerId, id);
    if (!domain) throw notFound('domain');

    const companyChanges: Record<string, string> = {};
    for (const [field, column] of Object.entries(COMPANY_FIELDS)) {
      const value = body[field as keyof typeof COMPANY_FIELDS];
      if (value !== undefined) companyChanges[column] = value;
    }
    const settingChanges: Record<string, string | boolean> = {};
    for (const setting of WIDGET_SETTINGS) {
      const value = body[setting];
      if (value !== undefined && value !== domain[setting]) settingChanges[setting] = value;
    }
    await applySettingChanges(trx, domain, { company: companyChanges, settings: settingChanges });
    return { id };
  });
}

/**
 * Writes a settings change and announces it, in the caller's transaction (the caller holds the
 * domain's lock): property.updated with `property_id` and each changed widget setting, and, when
 * the company changed, domain.changed for every domain of that company (projections hold the
 * company: consent records name it). Nothing changed: nothing is written. Answers the property
 * row after a settings change. PUT /portal/domains/{id} and the instance endpoints share it.
 */
export async function applySettingChanges(
  trx: DomainsDatabase,
  domain: { partner_id: string; id: string; company_id: string; property_id: string },
  changes: { company: Record<string, string | null>; settings: Record<string, string | boolean | number> },
) {
  const companyChanged = Object.keys(changes.company).length > 0;
  if (!companyChanged && Object.keys(changes.settings).length === 0) return undefined;
  const partnerId = domain.partner_id;
  const updated = await updateDomainSettings(trx, domain, changes);
  const events = updated ? [propertyUpdatedEvent(changes.settings, propertyEntityData(updated))] : [];
  // The projected state (domain.changed) holds the company but no widget setting: a
  // settings-only update leaves it as it was, so projections are not sent a copy of it.
  await writeDomainEvents(trx, partnerId, domain.id, events, companyChanged ? { kind: 'updated' } : undefined);
  if (companyChanged) {
    for (const other of await findCompanyDomainIds(trx, partnerId, domain.company_id)) {
      if (other !== domain.id) await writeDomainEvents(trx, partnerId, other, [], { kind: 'updated' });
    }
  }
  return updated;
}

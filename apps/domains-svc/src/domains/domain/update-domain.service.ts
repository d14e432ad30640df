import { inTransaction } from '@platform/db';
import { propertyUpdatedEvent, type UpdateDomainBody } from '@platform/contracts';
import { notFound } from '@platform/http';
import { findDomainForUpdate } from '../db/domain-reads.repository';
import { updateDomainSettings } from '../db/domain-writes.repository';
import { propertyEntityData, writeDomainEvents } from '../events/domain-events.writer';
import type { DomainsContext } from '../../context';
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
    if (Object.keys(companyChanges).length > 0 || Object.keys(settingChanges).length > 0) {
      const updated = await updateDomainSettings(trx, domain, { company: companyChanges, settings: settingChanges });
      const events = updated ? [propertyUpdatedEvent(settingChanges, propertyEntityData(updated))] : [];
      // The projected state (domain.changed) holds the company but no widget setting: a
      // settings-only update leaves it as it was, so projections are not sent a copy of it.
      await writeDomainEvents(
        trx,
        partnerId,
        id,
        events,
        Object.keys(companyChanges).length > 0 ? { kind: 'updated' } : undefined,
      );
    }
    return { id };
  });
}

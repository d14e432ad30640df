import type { MerchantState } from '@platform/contracts';
import type { Transaction } from '@platform/db';
import { applyIfNewer } from '@platform/messaging';
import { deleteMerchantLinks, refreshDomainMerchants, resolveMerchantLinks } from '../db/merchant-links.repository';
import { SCHEMA, type DomainsDb } from '../../db/tables';
import { writeDomainEvents } from '../events/domain-events.writer';

/** The projection's name in projection_versions: one version per merchant. */
const PROJECTION = 'merchant';

/**
 * A merchant's state after a change (merchant.changed), applied only when newer than what was
 * applied: its links carry its id and its current merchant_id (a rename), or go (a delete). Each
 * domain whose merchants changed gets domain.changed, so every projection and later event shows
 * the merchant_id the merchant has now. Links are sorted by domain id: concurrent changes lock
 * rows in one order.
 */
export async function applyMerchantChanged(
  trx: Transaction<DomainsDb>,
  event: { partnerId: string; version: number },
  merchant: MerchantState,
) {
  if (!(await applyIfNewer(trx, SCHEMA, PROJECTION, merchant.id, event.version))) return;
  const changed = merchant.deleted
    ? await deleteMerchantLinks(trx, event.partnerId, merchant)
    : await resolveMerchantLinks(trx, event.partnerId, merchant);
  const domainIds = [...new Set(changed)].sort();
  await refreshDomainMerchants(trx, event.partnerId, domainIds);
  for (const domainId of domainIds) await writeDomainEvents(trx, event.partnerId, domainId, [], { kind: 'merchants' });
}

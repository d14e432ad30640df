import { merchantChangedEvent, type EventMessage, type MerchantState } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { writeOutbox } from '@platform/messaging';
import { linksOfMerchant } from '../db/domain-links.repository';
import { findMerchantIdentity } from '../db/merchants.repository';
import { SCHEMA, type MerchantsDb } from '../db/tables';

const EVENT_SOURCE = 'merchants-svc';

/**
 * Writes merchant.changed, in the caller's transaction, for each merchant: its id, merchant_id
 * and links as they stand in this transaction (merchants no longer there are skipped). The
 * merchant is the aggregate, so domains-svc applies them by version whatever their order.
 */
export async function writeMerchantsChanged(trx: Kysely<MerchantsDb>, merchantRefs: string[]): Promise<EventMessage[]> {
  const events = [];
  for (const ref of [...new Set(merchantRefs)].sort()) {
    const merchant = await findMerchantIdentity(trx, ref);
    if (!merchant) continue;
    const links = await linksOfMerchant(trx, ref);
    events.push({
      partnerId: merchant.partner_id,
      aggregateId: ref,
      payload: merchantChangedEvent({ id: ref, merchant_id: merchant.merchant_id, deleted: false, links }),
    });
  }
  return writeOutbox(trx, SCHEMA, EVENT_SOURCE, events);
}

/** merchant.changed for a deleted merchant, with the links its delete cleared. */
export async function writeMerchantDeleted(
  trx: Kysely<MerchantsDb>,
  partnerId: string,
  state: Omit<MerchantState, 'deleted'>,
): Promise<EventMessage[]> {
  return writeOutbox(trx, SCHEMA, EVENT_SOURCE, [
    { partnerId, aggregateId: state.id, payload: merchantChangedEvent({ ...state, deleted: true }) },
  ]);
}

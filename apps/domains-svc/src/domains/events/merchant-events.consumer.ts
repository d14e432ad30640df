import type { ConsumerSpec } from '@platform/service';
import type { DomainsDb } from '../../db/tables';
import { applyMerchantChanged } from '../domain/merchant-links.service';

/** The consumer's name: its queue is <exchange>.domains-svc.merchants. */
export const MERCHANT_EVENTS_CONSUMER = 'merchants';

/** domains-svc's merchant links follow merchants-svc: a rename shows the new merchant_id, a delete clears them. */
export function merchantEventsConsumer(): ConsumerSpec<DomainsDb> {
  return {
    name: MERCHANT_EVENTS_CONSUMER,
    handlers: {
      'merchant.changed': (message, trx) =>
        applyMerchantChanged(
          trx,
          { partnerId: message.partner_id, version: message.version },
          message.payload.params.merchant,
        ),
    },
  };
}

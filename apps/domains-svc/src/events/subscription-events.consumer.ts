import { applyIfNewer } from '@platform/messaging';
import type { ConsumerSpec } from '@platform/service';
import { applySubscriptionState } from '../db/domains.repository';
import { SCHEMA, type DomainsDb } from '../db/tables';

/**
 * domains-svc's copy of each domain's subscription follows billing-svc's subscription.changed,
 * applied only when newer than what it has (events can arrive late, twice or out of order, and a
 * product change already applied the answer of billing-svc's call).
 */
export function subscriptionEventsConsumer(exchange: string): ConsumerSpec<DomainsDb> {
  return {
    queue: `${exchange}.domains-svc`,
    handlers: {
      'subscription.changed': async (message, trx) => {
        const subscription = message.payload.params.subscription;
        if (await applyIfNewer(trx, SCHEMA, 'subscription', subscription.id, message.version)) await applySubscriptionState(trx, subscription);
      },
    },
  };
}

import type { ConsumerSpec } from '@platform/service';
import type { DomainsDb } from '../../db/tables';
import { applySubscriptionUpdates } from '../domain/subscription-copies.service';

/** domains-svc's copy of each domain's subscription follows billing-svc's subscription.changed. */
export function subscriptionEventsConsumer(): ConsumerSpec<DomainsDb> {
  return {
    batchHandlers: {
      'subscription.changed': (messages, trx) =>
        applySubscriptionUpdates(
          trx,
          messages.map((m) => ({ subscription: m.payload.params.subscription, version: m.version })),
        ),
    },
  };
}

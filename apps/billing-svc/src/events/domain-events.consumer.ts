import type { ConsumerSpec } from '@platform/service';
import type { BillingDb } from '../db/tables';
import { endForDeletedDomain, openForNewDomains } from '../domain/subscriptions.service';

/** billing-svc follows domains: a new domain's subscription opens, a deleted domain's ends. */
export function domainEventsConsumer(): ConsumerSpec<BillingDb> {
  return {
    batchHandlers: {
      'domain.created': (messages, trx, hooks) =>
        openForNewDomains(
          trx,
          messages.map((m) => ({
            partnerId: m.partner_id,
            subscriptionId: m.payload.params.subscription_id,
            domainId: m.payload.params.domain_id,
            productId: m.payload.params.product_id,
            priceListId: m.payload.params.price_list_id,
            createdAt: m.payload.entity.data.created_at,
            requestId: hooks.requestIdOf(m),
          })),
        ),
    },
    handlers: {
      'domain.deleted': async (message, trx) => {
        await endForDeletedDomain(trx, message.partner_id, message.payload.params.subscriptions);
      },
    },
  };
}

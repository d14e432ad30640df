import type { ConsumerSpec } from '@platform/service';
import type { BillingDb } from '../db/tables';
import { endForDeletedDomain, openForNewDomain } from '../domain/subscriptions.service';

/** billing-svc follows domains: a new domain's subscription opens, a deleted domain's ends. */
export function domainEventsConsumer(exchange: string): ConsumerSpec<BillingDb> {
  return {
    queue: `${exchange}.billing-svc`,
    handlers: {
      'domain.created': async (message, trx) => {
        const p = message.payload.params;
        await openForNewDomain(trx, message.partner_id, {
          subscriptionId: p.subscription_id,
          domainId: p.domain_id,
          productId: p.product_id,
          priceListId: p.price_list_id,
          createdAt: message.payload.entity.data.created_at,
        });
      },
      'domain.deleted': async (message, trx) => {
        await endForDeletedDomain(trx, message.partner_id, message.payload.params.subscriptions);
      },
    },
  };
}

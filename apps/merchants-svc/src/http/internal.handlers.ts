import type { InternalCaller } from '@platform/auth';
import type { merchantInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { EventMessageHandling } from '@platform/messaging';
import { eventPushReceiver } from '@platform/service';
import type { MerchantsDb } from '../db/tables';
import { getMerchantDefaults } from '../domain/merchants.service';

/** Calls from other services (under /internal): domains-svc's pushed domain events (applied by the domain-events consumer), a merchant's defaults. */
export function internalHandlers(
  db: Kysely<MerchantsDb>,
  domainEvents: EventMessageHandling<MerchantsDb>,
): Handlers<(typeof merchantInternalRoutes)[number], InternalCaller> {
  return {
    pushMerchantEvent: eventPushReceiver(db, domainEvents),
    getMerchantDefaults: async ({ caller, params }) => {
      const row = await getMerchantDefaults(db, caller.partnerId, params.merchantId);
      return {
        result: {
          id: row.id,
          merchant_id: row.merchant_id,
          default_product: row.default_product,
          default_price_list: row.default_price_list,
        },
      };
    },
  };
}

import type { InternalCaller } from '@platform/auth';
import type { merchantInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { issuesOf, notFound, validationError, type Handlers } from '@platform/http';
import { handleEventMessage, InvalidEventMessageError, type EventMessageHandling } from '@platform/messaging';
import type { MerchantsDb } from '../db/tables';
import { getMerchantDefaults } from '../domain/merchants.service';

/**
 * Calls from other services (under /internal). A pushed event runs through the consumer's own
 * handling (same handlers, same idempotency scope), so the copy RabbitMQ delivers later is a duplicate.
 */
export function internalHandlers(
  db: Kysely<MerchantsDb>,
  domainEvents: EventMessageHandling<MerchantsDb>,
): Handlers<(typeof merchantInternalRoutes)[number], InternalCaller> {
  return {
    pushMerchantEvent: async ({ caller, body }) => {
      // A service acts for one partner: another partner's event is not its to hand over.
      if (body.partner_id !== caller.partnerId) throw notFound('event');
      try {
        const { fresh } = await handleEventMessage(db, domainEvents, body);
        return { result: { applied: fresh } };
      } catch (err) {
        if (err instanceof InvalidEventMessageError) throw validationError(issuesOf(err.issues, ['body', 'payload']));
        throw err;
      }
    },
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

import type { InternalCaller } from '@platform/auth';
import type { domainInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { issuesOf, notFound, validationError, type Handlers } from '@platform/http';
import { handleEventMessage, InvalidEventMessageError, type EventMessageHandling } from '@platform/messaging';
import type { DomainsDb } from '../../db/tables';

/**
 * Calls from other services (under /internal). A pushed event runs through the consumer's own
 * handling (same handlers, same idempotency scope), so the copy RabbitMQ delivers later is a duplicate.
 */
export function internalHandlers(
  db: Kysely<DomainsDb>,
  merchantEvents: EventMessageHandling<DomainsDb>,
): Handlers<(typeof domainInternalRoutes)[number], InternalCaller> {
  return {
    pushDomainsEvent: async ({ caller, body }) => {
      // A service acts for one partner: another partner's event is not its to hand over.
      if (body.partner_id !== caller.partnerId) throw notFound('event');
      try {
        const { fresh } = await handleEventMessage(db, merchantEvents, body);
        return { result: { applied: fresh } };
      } catch (err) {
        if (err instanceof InvalidEventMessageError) throw validationError(issuesOf(err.issues, ['body', 'payload']));
        throw err;
      }
    },
  };
}

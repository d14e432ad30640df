import type { InternalCaller } from '@platform/auth';
import type { domainInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { EventMessageHandling } from '@platform/messaging';
import { eventPushReceiver } from '@platform/service';
import type { DomainsDb } from '../../db/tables';

/** Calls from other services (under /internal): merchants-svc's pushed merchant events, applied by the merchant-events consumer. */
export function internalHandlers(
  db: Kysely<DomainsDb>,
  merchantEvents: EventMessageHandling<DomainsDb>,
): Handlers<(typeof domainInternalRoutes)[number], InternalCaller> {
  return { pushDomainsEvent: eventPushReceiver(db, merchantEvents) };
}

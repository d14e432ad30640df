import type { InternalCaller } from '@platform/auth';
import { isUuid, type domainInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { notFound, type Handlers } from '@platform/http';
import type { EventMessageHandling } from '@platform/messaging';
import { eventPushReceiver } from '@platform/service';
import type { DomainsDb } from '../../db/tables';
import { findDomainOwner } from '../db/domain-reads.repository';

/**
 * Calls from other services (under /internal): merchants-svc's pushed merchant events, applied by
 * the merchant-events consumer; and the gateway's question whose a domain is (the owner console's
 * sign-in links, asked for by a public caller: by id alone, across partners).
 */
export function internalHandlers(
  db: Kysely<DomainsDb>,
  merchantEvents: EventMessageHandling<DomainsDb>,
): Handlers<(typeof domainInternalRoutes)[number], InternalCaller> {
  return {
    pushDomainsEvent: eventPushReceiver(db, merchantEvents),
    getDomainOwner: async ({ params }) => {
      const row = isUuid(params.domainId) ? await findDomainOwner(db, params.domainId.toLowerCase()) : undefined;
      if (!row) throw notFound('domain');
      return { result: row };
    },
  };
}

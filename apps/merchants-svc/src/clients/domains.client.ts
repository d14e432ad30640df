import { domainInternalRoutes, MERCHANT_EVENTS, routeOf, type EventMessage } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import type { ServiceCaller } from '@platform/service';
import type { DomainsPort } from '../domain/context';

const pushDomainsEvent = routeOf(domainInternalRoutes, 'pushDomainsEvent');

/** merchants-svc calls domains-svc as itself, on the partner's behalf. */
const asPartner = (partnerId: string) => ({ partnerId, keyId: `merchants-svc:${partnerId}` });

/**
 * domains-svc as merchants-svc uses it: committed merchant.changed messages handed over before
 * the partner's call answers, so the next domain read shows a rename or delete. Best effort: the
 * same message reaches domains-svc over RabbitMQ from the outbox anyway (applied once).
 */
export function domainsClient(target: () => ServiceCaller, logger: Logger): DomainsPort {
  const log = logger.child({ target: 'domains-svc' });
  return {
    async push(messages: EventMessage[]) {
      for (const message of messages.filter((m) => m.payload.event === MERCHANT_EVENTS.changed)) {
        try {
          await target().call(pushDomainsEvent, { as: asPartner(message.partner_id), body: message });
        } catch (err) {
          log.warn(
            { err: (err as Error).message, messageId: message.id },
            'merchant change not pushed; it follows over the bus',
          );
        }
      }
    },
  };
}

import { domainInternalRoutes, MERCHANT_EVENTS, routeOf } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import { eventPush, type ServiceCaller } from '@platform/service';
import type { DomainsPort } from '../domain/context';

/**
 * domains-svc as merchants-svc uses it: merchant.changed messages handed over once they commit,
 * before the partner's call answers, so the next domain read shows a rename or delete. Best
 * effort: the same message reaches domains-svc over RabbitMQ from the outbox anyway (applied once).
 */
export function domainsClient(target: () => ServiceCaller, logger: Logger): DomainsPort {
  const push = eventPush({
    route: routeOf(domainInternalRoutes, 'pushDomainsEvent'),
    target,
    from: 'merchants-svc',
    takes: (message) => message.payload.event === MERCHANT_EVENTS.changed,
    logger,
  });
  return { pushOnCommit: push.onCommit };
}

import { DOMAIN_EVENTS, merchantInternalRoutes, routeOf } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import { eventPush, type ServiceCaller } from '@platform/service';
import type { MerchantsPort } from '../../context';

const getMerchantDefaults = routeOf(merchantInternalRoutes, 'getMerchantDefaults');

/** Events merchants-svc projects the merchant's domain from. */
const LINK_EVENTS = new Set<string>([DOMAIN_EVENTS.changed, DOMAIN_EVENTS.deleted]);

/** domains-svc calls merchants-svc as itself, on the partner's behalf. */
const asPartner = (partnerId: string) => ({ partnerId, keyId: `domains-svc:${partnerId}` });

/**
 * merchants-svc as domains-svc uses it. Both calls are best effort: a merchant's defaults are a
 * preference (without merchants-svc the partner's apply), and a pushed event only makes the link
 * visible sooner; the same event reaches merchants-svc over RabbitMQ from the outbox anyway.
 */
export function merchantsClient(target: () => ServiceCaller, logger: Logger): MerchantsPort {
  const log = logger.child({ target: 'merchants-svc' });
  const links = eventPush({
    route: routeOf(merchantInternalRoutes, 'pushMerchantEvent'),
    target,
    from: 'domains-svc',
    takes: (message) => LINK_EVENTS.has(message.payload.event),
    logger,
  });
  return {
    async defaultsOf(partnerId, merchantId) {
      try {
        const { result } = await target().call(getMerchantDefaults, {
          as: asPartner(partnerId),
          params: { merchantId },
        });
        return { product: result.default_product ?? undefined, priceList: result.default_price_list ?? undefined };
      } catch (err) {
        // 404 (no such merchant yet) is the common case; anything else is logged.
        if ((err as { code?: string }).code !== 'RESOURCE.NOT_FOUND')
          log.warn({ err: (err as Error).message }, 'merchant defaults unavailable; using the partner defaults');
        return undefined;
      }
    },
    pushOnCommit: links.onCommit,
  };
}

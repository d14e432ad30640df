import { z } from 'zod';
import type { InternalCaller } from '@platform/auth';
import { DOMAIN_EVENTS, resultOf, type EventMessage } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import type { ServiceCaller } from '@platform/service';
import type { MerchantsPort } from '../domain/context';

const defaultsSchema = resultOf(z.object({ default_product: z.string().nullable(), default_price_list: z.string().nullable() }));
const appliedSchema = resultOf(z.object({ applied: z.boolean() }));

/** Events merchants-svc projects the merchant's domain from. */
const LINK_EVENTS = new Set<string>([DOMAIN_EVENTS.changed, DOMAIN_EVENTS.deleted]);

/** domains-svc calls merchants-svc as itself, on the partner's behalf. */
const asPartner = (partnerId: string, permission: 'merchants:read' | 'merchants:write'): InternalCaller => ({
  partnerId,
  keyId: `domains-svc:${partnerId}`,
  permissions: [permission],
  requiredFields: [],
});

/**
 * merchants-svc as domains-svc uses it. Both calls are best effort: a merchant's defaults are a
 * preference (without merchants-svc the partner's apply), and a pushed event only makes the link
 * visible sooner; the same event reaches merchants-svc over RabbitMQ from the outbox anyway.
 */
export function merchantsClient(target: () => ServiceCaller, logger: Logger): MerchantsPort {
  const log = logger.child({ target: 'merchants-svc' });
  return {
    async defaultsOf(partnerId, merchantId) {
      try {
        const { result } = await target().getJson(asPartner(partnerId, 'merchants:read'), `/internal/merchants/by-merchant-id/${encodeURIComponent(merchantId)}`, defaultsSchema);
        return { product: result.default_product ?? undefined, priceList: result.default_price_list ?? undefined };
      } catch (err) {
        // 404 (no such merchant yet) is the common case; anything else is logged.
        if ((err as { code?: string }).code !== 'RESOURCE.NOT_FOUND') log.warn({ err: (err as Error).message }, 'merchant defaults unavailable; using the partner defaults');
        return undefined;
      }
    },
    async push(messages: EventMessage[]) {
      for (const message of messages.filter((m) => LINK_EVENTS.has(m.payload.event))) {
        try {
          await target().postJson(asPartner(message.partner_id, 'merchants:write'), '/internal/merchants/events', message, appliedSchema);
        } catch (err) {
          log.warn({ err: (err as Error).message, messageId: message.id }, 'merchant link not pushed; it follows over the bus');
        }
      }
    },
  };
}

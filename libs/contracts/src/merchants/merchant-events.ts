import { z } from 'zod';
import type { EventPayload } from '../events';

export const MERCHANT_EVENTS = {
  /** Internal: a merchant's identity and links after a rename, a delete or a link change, for domains-svc. */
  changed: 'merchant.changed',
} as const;

/**
 * A domain's link to a merchant: the domain, and the merchant_id the domain named when the link
 * was made (`requested_as`; domains-svc finds a link it has not resolved yet by that pair).
 */
export const merchantLinkSchema = z.object({ domain_id: z.string(), requested_as: z.string() }).strict();

/**
 * The merchant as domains-svc projects it: its id (the link's key), its current merchant_id, and
 * every domain linked to it. A deleted merchant carries the links it had when it was deleted.
 */
export const merchantStateSchema = z
  .object({
    id: z.string(),
    merchant_id: z.string(),
    deleted: z.boolean(),
    links: z.array(merchantLinkSchema),
  })
  .strict();
export type MerchantState = z.infer<typeof merchantStateSchema>;

export const merchantChangedEventSchema = z.object({
  event: z.literal(MERCHANT_EVENTS.changed),
  params: z.object({ merchant: merchantStateSchema }).strict(),
});

export const merchantChangedEvent = (merchant: MerchantState): EventPayload => ({
  event: MERCHANT_EVENTS.changed,
  params: { merchant },
});

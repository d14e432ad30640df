import { z } from 'zod';
import { subscriptionStatusSchema } from '../domains/domain.schema';
import type { EventPayload } from '../events';

export const SUBSCRIPTION_EVENTS = { changed: 'subscription.changed' } as const;

/** A subscription as billing-svc owns it and other services project it (prices by id; names from the catalogue). */
export const subscriptionStateSchema = z.object({
  id: z.string(),
  partner_id: z.string(),
  domain_id: z.string(),
  status: subscriptionStatusSchema,
  product_id: z.number().int(),
  price_list_id: z.number().int(),
  price_id: z.number().int(),
  start_date: z.string(),
  end_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>;

export const SUBSCRIPTION_CHANGES = ['created', 'product_changed', 'ended'] as const;

/** Internal: a subscription's whole state after any change (aggregate = the subscription id). */
export const subscriptionChangedEventSchema = z.object({
  event: z.literal(SUBSCRIPTION_EVENTS.changed),
  params: z.object({ change: z.enum(SUBSCRIPTION_CHANGES), subscription: subscriptionStateSchema.strict() }).strict(),
});

export const subscriptionChangedEvent = (
  change: (typeof SUBSCRIPTION_CHANGES)[number],
  subscription: SubscriptionState,
): EventPayload => ({
  event: SUBSCRIPTION_EVENTS.changed,
  params: { change, subscription },
});

/** One product change domains-svc asks billing for: ids resolved from the partner's codes, and the domain the subscription belongs to. */
export const subscriptionProductChangeSchema = z.object({
  // Any 8-4-4-4-12 id, as PostgreSQL's uuid type takes (not only RFC 4122 versions).
  subscription_id: z.guid(),
  domain_id: z.string(),
  product_id: z.number().int(),
  price_list_id: z.number().int(),
  price_id: z.number().int(),
  /** When the subscription started (the domain's creation), should billing not know it yet. */
  start_date: z.string(),
});

export type SubscriptionProductChange = z.infer<typeof subscriptionProductChangeSchema>;

export const subscriptionProductChangesBodySchema = z.object({
  changes: z.array(subscriptionProductChangeSchema).min(1).max(100),
});

export const subscriptionProductChangeResultSchema = z.object({
  subscription_id: z.string(),
  changed: z.boolean(),
  subscription: subscriptionStateSchema,
  /** The subscription's version after this call (what a projection applies it as). */
  version: z.number().int(),
});
export type SubscriptionProductChangeResult = z.infer<typeof subscriptionProductChangeResultSchema>;

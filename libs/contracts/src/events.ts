import { z } from 'zod';

/** The partner-visible payload of every event (spec, Events): {event, params, entity?}. */
export const eventPayloadSchema = z.object({
  event: z.string(),
  params: z.record(z.string(), z.unknown()),
  entity: z.object({ kind: z.string(), data: z.record(z.string(), z.unknown()) }).optional(),
});
export type EventPayload = z.infer<typeof eventPayloadSchema>;

/**
 * The one envelope on the bus for public and internal events alike; routing key = payload.event.
 * `id` is the idempotency key consumers record; `partner_id` scopes webhook fan-out.
 */
export const eventMessageSchema = z.object({
  id: z.string().uuid(),
  partner_id: z.string(),
  occurred_at: z.string(),
  source: z.string(),
  payload: eventPayloadSchema,
});
export type EventMessage = z.infer<typeof eventMessageSchema>;

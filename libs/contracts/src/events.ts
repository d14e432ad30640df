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
 * `aggregate_id` names the thing that changed (e.g. the domain) and `version` counts its changes
 * (1, 2, 3... in commit order), so a projection applies an event only when it is newer than what
 * it has, whatever order RabbitMQ delivers them in.
 */
export const eventMessageSchema = z.object({
  id: z.string().uuid(),
  partner_id: z.string(),
  occurred_at: z.string(),
  source: z.string(),
  aggregate_id: z.string().min(1),
  version: z.number().int().positive(),
  payload: eventPayloadSchema,
});
export type EventMessage = z.infer<typeof eventMessageSchema>;

/** One event the platform emits: who may see it, what it means, and its payload's schema. */
export interface EventDefinition {
  /** public: partners can subscribe (webhooks); internal: only services consume it. */
  visibility: 'public' | 'internal';
  description: string;
  /** The whole payload `{event, params, entity?}`, with `event` as a literal. */
  schema: z.ZodType<EventPayload>;
}

/** The payload of an event message whose name the registry knows, typed by its schema. */
export type EventMessageOf<P> = Omit<EventMessage, 'payload'> & { payload: P };

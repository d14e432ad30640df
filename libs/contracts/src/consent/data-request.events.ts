import { z } from 'zod';
import { dataRequestSchema, dsarStatusSchema, dsarTypeSchema } from './data-request.schema';

/** The events consent-svc emits about data subject requests (the spec's {event, params, entity} shape). */
export const DATA_REQUEST_EVENTS = {
  verified: 'data_request.verified',
  overdue: 'data_request.overdue',
  closed: 'data_request.closed',
} as const;

export const dataRequestEventParamsSchema = z
  .object({
    request_id: z.string(),
    domain_id: z.string(),
    property_id: z.string(),
    type: dsarTypeSchema,
    status: dsarStatusSchema,
    due_at: z.string().nullable(),
  })
  .strict();

const dataRequestEventPayload = <N extends string>(name: N) =>
  z
    .object({
      event: z.literal(name),
      params: dataRequestEventParamsSchema,
      entity: z.object({ kind: z.literal('data_request'), data: dataRequestSchema.omit({ history: true }).strict() }),
    })
    .strict();

export const dataRequestVerifiedEventSchema = dataRequestEventPayload(DATA_REQUEST_EVENTS.verified);
export const dataRequestOverdueEventSchema = dataRequestEventPayload(DATA_REQUEST_EVENTS.overdue);
export const dataRequestClosedEventSchema = dataRequestEventPayload(DATA_REQUEST_EVENTS.closed);

import { z } from 'zod';
import { dateTime, paginationQuerySchema } from '../common';
import { PUBLIC_EVENT_NAMES, isPublicEventName } from '../event-registry';

/** Longest endpoint URL accepted (browsers and proxies handle 2 KB URLs everywhere). */
export const WEBHOOK_URL_MAX = 2_048;

/**
 * Ports an endpoint may not use: well-known services that do not speak HTTP (SSH, Telnet, SMTP,
 * POP3, IMAP, their TLS forms, MySQL, PostgreSQL, Redis). Every other port 1..65535 is allowed.
 */
export const WEBHOOK_REFUSED_PORTS: readonly number[] = [22, 23, 25, 110, 143, 465, 587, 993, 995, 3306, 5432, 6379];

/**
 * An endpoint URL: absolute http(s), no credentials, no fragment, a host that is an IP literal or
 * has at least two labels, a port outside WEBHOOK_REFUSED_PORTS and not 0. It is stored and
 * answered in its normalised (WHATWG) form: `https:hooks.example.com` becomes
 * `https://hooks.example.com/`. Whether its host may be contacted (SSRF policy, https-only) is
 * checked by webhook-svc with its settings.
 */
export const webhookUrlSchema = z
  .string()
  .max(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`)
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => normaliseWebhookUrl(value))
  .meta({
    description: 'Absolute http(s) URL the events are POSTed to; stored normalised',
    example: 'https://hooks.example.com/privacy-widget',
  });

/** The WHATWG form of a URL webhookUrlProblem accepted (lowercase scheme and host, default port and dot segments dropped). */
export const normaliseWebhookUrl = (value: string): string => (URL.canParse(value) ? new URL(value).href : value);

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The host as typed (after scheme, slashes and credentials; before port and path), lowercase, without a trailing dot. */
const rawHost = (value: string) =>
  (/^[a-z][a-z0-9+.-]*:[/\\]*(?:[^@/\\?#]*@)?([^:/\\?#]*)/i.exec(value.trim())?.[1] ?? '')
    .toLowerCase()
    .replace(/\.$/, '');

export function webhookUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a fragment';
  // An IPv4 literal is dotted once parsed (2130706433 becomes 127.0.0.1); an IPv6 one is bracketed.
  const host = url.hostname.replace(/\.$/, '');
  if (IPV4.test(host) && rawHost(value) !== host)
    return 'must write an IPv4 address as four decimal numbers, like 192.0.2.10';
  if (!host.startsWith('[') && !host.includes('.'))
    return 'must have a host name with at least two labels, like hooks.example.com';
  if (url.port === '0') return 'must not use port 0';
  if (url.port !== '' && WEBHOOK_REFUSED_PORTS.includes(Number(url.port))) {
    return `must not use port ${url.port} (refused: ${WEBHOOK_REFUSED_PORTS.join(', ')})`;
  }
  if (url.href.length > WEBHOOK_URL_MAX) return `must be at most ${WEBHOOK_URL_MAX} characters once normalised`;
  return undefined;
}

const eventNameSchema = z
  .string()
  .refine(isPublicEventName, { message: `must be one of: ${PUBLIC_EVENT_NAMES.join(', ')}` });

/** null or absent: every event; otherwise only these (at least one, duplicates removed). */
export const webhookEventsSchema = z
  .array(eventNameSchema)
  .min(1, 'must name at least one event (leave it out, or null, for every event)')
  .max(PUBLIC_EVENT_NAMES.length * 2)
  .transform((names) => [...new Set(names)])
  .meta({
    description: 'Event names this endpoint receives; null or absent: every event',
    example: ['domain.created', 'domain.deleted'],
  });

export const createWebhookBodySchema = z
  .object({
    url: webhookUrlSchema,
    events: webhookEventsSchema.nullable().optional(),
    description: z.string().max(500, 'must be at most 500 characters').optional(),
  })
  .strict();
export type CreateWebhookBody = z.output<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    url: webhookUrlSchema.optional(),
    events: webhookEventsSchema.nullable().optional(),
    description: z.string().max(500, 'must be at most 500 characters').optional(),
    enabled: z
      .boolean()
      .optional()
      .meta({ description: 'false stops deliveries; true re-enables an endpoint the platform disabled' }),
  })
  .strict();
export type UpdateWebhookBody = z.output<typeof updateWebhookBodySchema>;

export const ROTATION_GRACE_MAX_SECONDS = 7 * 24 * 3_600;
export const rotateWebhookSecretBodySchema = z
  .object({
    previous_secret_expires_in: z
      .number()
      .int()
      .min(0)
      .max(ROTATION_GRACE_MAX_SECONDS, `must be at most ${ROTATION_GRACE_MAX_SECONDS}`)
      .optional()
      .meta({ description: 'Seconds the old secret keeps signing beside the new one (default 86400; 0 drops it now)' }),
  })
  .strict()
  .default({});

export const webhookTestBodySchema = z
  .object({
    event: eventNameSchema
      .optional()
      .meta({ description: 'Which event type to send an example of (default domain.created)' }),
  })
  .strict()
  .default({});

export const recoverWebhookBodySchema = z
  .object({
    since: dateTime().meta({ description: 'Failed deliveries created at or after this time are sent again' }),
    until: dateTime().optional().meta({ description: 'Only those created before this time (default: now)' }),
  })
  .strict();

export const webhookIdParamsSchema = z.object({
  endpointId: z.string().min(1).meta({ description: 'Webhook endpoint id' }),
});
export const deliveryIdParamsSchema = webhookIdParamsSchema.extend({
  deliveryId: z.string().min(1).meta({ description: 'Delivery id (= the webhook-id header)' }),
});

export const DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()).nullable().meta({ description: 'null: every event' }),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(DISABLED_REASONS)
      .nullable()
      .meta({ description: 'manual: by the partner; gone: the endpoint answered 410; failing: no success for 5 days' }),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .meta({ description: 'Until then the old secret signs too (after a rotation)' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointWithSecretSchema = webhookEndpointSchema
  .extend({
    secret: z
      .string()
      .meta({ description: 'whsec_ + base64; shown only now. Verify deliveries with it (Standard Webhooks).' }),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const ATTEMPT_ERRORS = [
  'timeout',
  'dns',
  'connect',
  'tls',
  'blocked_address',
  'redirect',
  'response',
  'invalid_url',
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookAttemptSchema = z
  .object({
    attempted_at: z.string(),
    duration_ms: z.number().int(),
    status_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The HTTP status answered; null when no answer came' }),
    error: z.enum(ATTEMPT_ERRORS).nullable().meta({
      description:
        'Why no usable answer came; null when the endpoint answered (see status_code). redirect: a 3xx, never followed.',
    }),
    error_message: z.string().nullable(),
    response_body: z.string().nullable().meta({ description: 'The first 20 KiB of the answer' }),
    response_truncated: z.boolean(),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliverySchema = z
  .object({
    id: z.string().meta({ description: 'Sent as webhook-id, the same on every attempt' }),
    endpoint_id: z.string(),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The body sent: {event, params, entity?}' }),
    attempts: z.array(webhookAttemptSchema).meta({ description: 'Oldest first' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const listWebhooksQuerySchema = paginationQuerySchema;

export const listDeliveriesQuerySchema = paginationQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: eventNameSchema.optional(),
});

export const webhookEventTypeSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    example: z.record(z.string(), z.unknown()).meta({ description: 'An example body: {event, params, entity?}' }),
    schema: z
      .record(z.string(), z.unknown())
      .meta({ description: "The JSON Schema (draft 2020-12) of the event's body" }),
  })
  .meta({ id: 'WebhookEventType' });

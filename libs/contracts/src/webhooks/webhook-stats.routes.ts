import { z } from 'zod';
import { resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';

const count = z.number().int().min(0);

export const failingWebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    failing_since: z.string().meta({ description: 'The first failed attempt since the last success' }),
    last_failure_at: z.string().nullable().meta({ description: 'The latest failed attempt (null once pruned)' }),
    failed_last_24h: count.meta({ description: 'Failed attempts in the last 24 hours' }),
  })
  .meta({ id: 'FailingWebhookEndpoint' });

export const webhookStatsSchema = z
  .object({
    endpoints: z.object({
      total: count,
      disabled: count,
      failing: z
        .array(failingWebhookEndpointSchema)
        .meta({ description: 'Endpoints whose latest attempts all failed, longest failing first' }),
    }),
    pending: count.meta({ description: 'Deliveries still to be made (first attempt or a retry)' }),
    oldest_pending_delivery_at: z
      .string()
      .nullable()
      .meta({ description: 'When the oldest pending delivery was created; null when none is pending' }),
    failed_last_24h: count.meta({ description: 'Failed attempts (no 2xx answer) in the last 24 hours' }),
  })
  .meta({ id: 'WebhookStats' });
export type WebhookStats = z.infer<typeof webhookStatsSchema>;

/** The portal's Dashboard: the health of the partner's webhooks. */
export const webhookStatsRoutes = [
  defineRoute({
    service: 'webhooks',
    permission: 'webhooks:read',
    tag: 'Dashboard',
    operationId: 'getWebhookStats',
    method: 'get',
    path: '/portal/stats/webhooks',
    summary: 'Webhook health: failing endpoints, pending deliveries, failures in the last 24 hours',
    response: resultOf(webhookStatsSchema),
    errors: [],
  }),
] satisfies RouteSpec[];

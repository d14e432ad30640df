import type { JobDefinition } from '@platform/jobs';
import { pruneFinishedDeliveries } from '../db/deliveries.repository';
import { disableFailingEndpoints } from '../db/endpoints.repository';
import type { WebhooksDb } from '../db/tables';

/**
 * Housekeeping of any webhook-svc process (singletons: one run at a time across all of them):
 * endpoints with no success for `disableAfterMs` are disabled; finished deliveries, their
 * attempts and messages are deleted after `retentionMs`. Pending deliveries are never deleted.
 */
export function webhookJobs(settings: { disableAfterMs: number; retentionMs: number }): JobDefinition<WebhooksDb>[] {
  return [
    {
      name: 'webhooks-disable-failing',
      intervalMs: 10 * 60_000,
      jitterMs: 60_000,
      singleton: true,
      run: async ({ db, now, logger }) => {
        const disabled = await disableFailingEndpoints(db, new Date(now.getTime() - settings.disableAfterMs), now);
        if (disabled > 0) logger.warn({ disabled }, 'disabled webhook endpoints with no success for too long');
        return { disabled };
      },
    },
    {
      name: 'webhooks-prune',
      intervalMs: 10 * 60_000,
      jitterMs: 60_000,
      singleton: true,
      deadlineMs: 5 * 60_000,
      run: ({ db, now, signal }) => pruneFinishedDeliveries(db, new Date(now.getTime() - settings.retentionMs), signal),
    },
  ];
}

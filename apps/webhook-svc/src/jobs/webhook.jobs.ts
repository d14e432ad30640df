import { sql } from '@platform/db';
import { deleteInBatches, type JobDefinition } from '@platform/jobs';
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
        const result = await db
          .updateTable('endpoints')
          .set({ enabled: false, disabled_reason: 'failing', updated_at: now })
          .where('enabled', '=', true)
          .where('failing_since', '<', new Date(now.getTime() - settings.disableAfterMs))
          .executeTakeFirst();
        const disabled = Number(result.numUpdatedRows);
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
      run: async ({ db, now, signal }) => {
        const before = new Date(now.getTime() - settings.retentionMs);
        // Deliveries cascade to their attempts; messages go once no delivery refers to them.
        const deliveries = await deleteInBatches(db, { name: 'deliveries' }, sql`status <> 'pending' AND updated_at < ${before}`, { signal });
        const messages = await deleteInBatches(
          db,
          { name: 'messages' },
          sql`created_at < ${before} AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = messages.id)`,
          { signal },
        );
        return { deliveries, messages };
      },
    },
  ];
}

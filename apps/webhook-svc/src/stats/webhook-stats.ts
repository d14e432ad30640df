import type { InternalCaller } from '@platform/auth';
import type { webhookStatsRoutes, WebhookStats } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { WebhooksDb } from '../db/tables';
import type { WebhooksContext } from '../domain/context';

/** An attempt that failed: no answer, or not a 2xx (attempt-classification.ts). */
const FAILED = sql`(a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)`;

/**
 * The partner's webhook health in four reads, each on an index that starts with the partner or
 * one of its endpoints (endpoints_partner, deliveries_partner_pending, attempts_endpoint).
 */
export async function webhookStats(db: Kysely<WebhooksDb>, partnerId: string): Promise<WebhookStats> {
  const since = sql`now() - interval '24 hours'`;
  const [endpoints, failing, pending, failed] = await Promise.all([
    sql<{ total: number; disabled: number }>`
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT enabled))::int AS disabled
      FROM endpoints WHERE partner_id = ${partnerId}`.execute(db),
    sql<{
      id: string;
      url: string;
      enabled: boolean;
      failing_since: Date;
      last_failure_at: Date | null;
      failed_last_24h: number;
    }>`
      SELECT e.id, e.url, e.enabled, e.failing_since,
             (SELECT max(a.attempted_at) FROM attempts a WHERE a.endpoint_id = e.id AND ${FAILED}) AS last_failure_at,
             (SELECT count(*)::int FROM attempts a
               WHERE a.endpoint_id = e.id AND a.attempted_at >= ${since} AND ${FAILED}) AS failed_last_24h
      FROM endpoints e
      WHERE e.partner_id = ${partnerId} AND e.failing_since IS NOT NULL
      ORDER BY e.failing_since, e.id`.execute(db),
    sql<{ n: number; oldest: Date | null }>`
      SELECT count(*)::int AS n, min(created_at) AS oldest
      FROM deliveries WHERE partner_id = ${partnerId} AND status = 'pending'`.execute(db),
    sql<{ n: number }>`
      SELECT count(*)::int AS n
      FROM endpoints e JOIN attempts a ON a.endpoint_id = e.id
      WHERE e.partner_id = ${partnerId} AND a.attempted_at >= ${since} AND ${FAILED}`.execute(db),
  ]);
  return {
    endpoints: {
      total: endpoints.rows[0].total,
      disabled: endpoints.rows[0].disabled,
      failing: failing.rows.map((e) => ({
        id: e.id,
        url: e.url,
        enabled: e.enabled,
        failing_since: e.failing_since.toISOString(),
        last_failure_at: e.last_failure_at?.toISOString() ?? null,
        failed_last_24h: e.failed_last_24h,
      })),
    },
    pending: pending.rows[0].n,
    oldest_pending_delivery_at: pending.rows[0].oldest?.toISOString() ?? null,
    failed_last_24h: failed.rows[0].n,
  };
}

/** The portal Dashboard's webhook health, always the caller's partner's. */
export function webhookStatsHandlers(
  ctx: WebhooksContext,
): Handlers<(typeof webhookStatsRoutes)[number], InternalCaller> {
  return {
    getWebhookStats: async ({ caller }) => ({ result: await webhookStats(ctx.db, caller.partnerId) }),
  };
}

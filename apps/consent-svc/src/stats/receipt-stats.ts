import type { InternalCaller } from '@platform/auth';
import type { consentStatsRoutes, ReceiptStats } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { ConsentDb } from '../db/tables';

const DAY_MS = 86_400_000;

interface DayRow {
  date: string;
  allowed: number;
  partial: number;
  denied: number;
}

/**
 * The partner's receipts per UTC day from `since` on: an index-only scan of records_partner_created,
 * grouped by the date itself (a day's text is made once per group, not once per record).
 */
async function countReceiptsPerDay(db: Kysely<ConsentDb>, partnerId: string, since: Date) {
  const { rows } = await sql<DayRow>`
    SELECT ((created_at AT TIME ZONE 'UTC')::date)::text AS date,
           (count(*) FILTER (WHERE receipt_status = 'ALLOWED'))::int AS allowed,
           (count(*) FILTER (WHERE receipt_status = 'PARTIAL'))::int AS partial,
           (count(*) FILTER (WHERE receipt_status = 'DENIED'))::int AS denied
    FROM records
    WHERE partner_id = ${partnerId} AND created_at >= ${since}
    GROUP BY (created_at AT TIME ZONE 'UTC')::date`.execute(db);
  return rows;
}

/** `days` days of receipts, today (UTC) last, a day without any as zeros. */
export async function receiptStats(
  db: Kysely<ConsentDb>,
  partnerId: string,
  days: number,
  now = new Date(),
): Promise<ReceiptStats> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const byDate = new Map((await countReceiptsPerDay(db, partnerId, since)).map((row) => [row.date, row]));
  const per_day = Array.from({ length: days }, (_, k) => {
    const date = new Date(since.getTime() + k * DAY_MS).toISOString().slice(0, 10);
    const { allowed = 0, partial = 0, denied = 0 } = byDate.get(date) ?? {};
    return { date, allowed, partial, denied, total: allowed + partial + denied };
  });
  return { per_day };
}

/** The portal Dashboard's receipts per day, always the caller's partner's. */
export function receiptStatsHandlers(
  db: Kysely<ConsentDb>,
): Handlers<(typeof consentStatsRoutes)[number], InternalCaller> {
  return {
    getReceiptStats: async ({ caller, query }) => ({ result: await receiptStats(db, caller.partnerId, query.days) }),
  };
}

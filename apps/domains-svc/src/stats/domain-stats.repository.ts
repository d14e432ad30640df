import { sql } from '@platform/db';
import type { DomainsDatabase } from '../db/tables';

export interface WeekCount {
  week_start: string;
  n: number;
}

/** The partner's domains per status now (domains_partner_status serves it). */
export async function countDomainsByStatus(db: DomainsDatabase, partnerId: string) {
  return db
    .selectFrom('domains')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('partner_id', '=', partnerId)
    .groupBy('status')
    .execute();
}

/**
 * The partner's domains per ISO week (UTC Monday) of one of their times, from `since` on.
 * created_at: `is_active IN (true, false)` lets domains_partner_list serve the range (its second
 * column is is_active); invited_at and activated_at have partial indexes of their own.
 */
export async function countDomainsPerWeek(
  db: DomainsDatabase,
  partnerId: string,
  column: 'created_at' | 'invited_at' | 'activated_at',
  since: Date,
): Promise<WeekCount[]> {
  const at = sql.ref(column);
  const { rows } = await sql<WeekCount>`
    SELECT (date_trunc('week', ${at} AT TIME ZONE 'UTC')::date)::text AS week_start, count(*)::int AS n
    FROM domains
    WHERE partner_id = ${partnerId}
      ${column === 'created_at' ? sql`AND is_active IN (true, false)` : sql``}
      AND ${at} >= ${since}
    GROUP BY date_trunc('week', ${at} AT TIME ZONE 'UTC')::date`.execute(db);
  return rows;
}

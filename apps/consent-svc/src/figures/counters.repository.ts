import { FIGURE_CATEGORIES, type ConsentDayFigures } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import type { ConsentDb } from '../db/tables';
import { scopeDomains, type RecordScope } from '../db/records.repository';

/** One notice shown on the property today (UTC): its counters raised (and its partner's), nothing about the visitor kept. */
export async function countNoticeView(
  db: Kysely<ConsentDb>,
  p: { property_id: string; partner_id: string; domain_id: string },
) {
  const today = sql`(now() AT TIME ZONE 'UTC')::date`;
  await sql`
    WITH counted AS (
      INSERT INTO consent_counters AS c (property_id, day, partner_id, domain_id, notice_views)
      VALUES (${p.property_id}, ${today}, ${p.partner_id}, ${p.domain_id}, 1)
      ON CONFLICT (property_id, day) DO UPDATE SET notice_views = c.notice_views + 1
    )
    INSERT INTO consent_partner_counters AS c (partner_id, day, notice_views)
    VALUES (${p.partner_id}, ${today}, 1)
    ON CONFLICT (partner_id, day) DO UPDATE SET notice_views = c.notice_views + 1`.execute(db);
}

/** Whether the partner has a property on the domain or the merchant (another partner's: no). */
export async function scopeExists(db: Kysely<ConsentDb>, scope: RecordScope): Promise<boolean> {
  const domains = scopeDomains(scope);
  if (!domains) return false;
  const { rows } = await sql`
    SELECT 1 FROM properties p WHERE p.partner_id = ${scope.partnerId} AND p.domain_id IN (SELECT d.id FROM ${domains})
    LIMIT 1`.execute(db);
  return rows.length > 0;
}

type DayRow = Omit<ConsentDayFigures, 'granted'> & Record<`granted_${(typeof FIGURE_CATEGORIES)[number]}`, number>;
const sum = (column: string) => sql`sum(${sql.ref(column)})::float8 AS ${sql.ref(column)}`;
const COUNTERS = [
  'notice_views',
  'accept_all',
  'reject_all',
  'custom',
  'gpc_opt_outs',
  ...FIGURE_CATEGORIES.map((c) => `granted_${c}`),
];

/**
 * The counters of a range of days summed per day: for the scope's domains from the properties'
 * counters (index (partner, domain, day)), or with no scope the partner's own (one row a day).
 */
export async function countersPerDay(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  range: { from: string; to: string },
): Promise<DayRow[]> {
  const domains = scopeDomains(scope);
  const days = sql`c.day BETWEEN ${range.from}::date AND ${range.to}::date`;
  const { rows } = domains
    ? await sql<DayRow>`
        SELECT c.day::text AS date, ${sql.join(COUNTERS.map(sum))}
        FROM consent_counters c
        WHERE c.partner_id = ${scope.partnerId} AND ${days} AND c.domain_id IN (SELECT d.id FROM ${domains})
        GROUP BY c.day`.execute(db)
    : await sql<DayRow>`
        SELECT c.day::text AS date, ${sql.join(COUNTERS.map(sum))}
        FROM consent_partner_counters c
        WHERE c.partner_id = ${scope.partnerId} AND ${days}
        GROUP BY c.day`.execute(db);
  return rows;
}

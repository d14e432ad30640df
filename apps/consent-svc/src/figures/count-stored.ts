import { sql } from '@platform/db';

const granted = (category: string) =>
  sql`count(*) FILTER (WHERE cookie AND (body->'subject_data'->'categories'->>${category})::boolean)`;

/** The counters a group of stored receipts adds (columns of `stored`), in COUNTER_COLUMNS' order. */
const RECEIPT_COUNTS = sql`
  count(*) FILTER (WHERE cookie AND receipt_status = 'ALLOWED'),
  count(*) FILTER (WHERE cookie AND receipt_status = 'DENIED'),
  count(*) FILTER (WHERE cookie AND receipt_status = 'PARTIAL'),
  count(*) FILTER (WHERE (body->'meta'->>'gpc')::boolean),
  ${granted('functional')}, ${granted('analytics')}, ${granted('marketing')}`;

const COUNTER_COLUMNS = [
  'accept_all',
  'reject_all',
  'custom',
  'gpc_opt_outs',
  'granted_functional',
  'granted_analytics',
  'granted_marketing',
];
const cols = sql.join(COUNTER_COLUMNS.map((c) => sql.ref(c)));
const added = sql.join(COUNTER_COLUMNS.map((c) => sql`${sql.ref(c)} = c.${sql.ref(c)} + excluded.${sql.ref(c)}`));
const STORED = sql`(SELECT *, receipt_type = 'COOKIE_CONSENT' AS cookie, (created_at AT TIME ZONE 'UTC')::date AS day FROM stored) s`;

/**
 * The counters' upserts for the rows of the CTE `stored` (records.repository.ts's insert), as two
 * more CTEs of the same statement (so the same transaction): one row per property and UTC day, and
 * one per partner and day (the portfolio's figures, read without summing every property), each
 * group in key order so two groups committing at once never wait on each other's rows in opposite
 * orders (no deadlock). A cookie choice counts as accept all (ALLOWED), reject all (DENIED) or
 * custom (PARTIAL), and once per category it granted; any receipt sent with Global Privacy Control
 * is a GPC opt-out.
 */
export const COUNT_STORED_CTES = sql`
  counted AS (
    INSERT INTO consent_counters AS c (property_id, day, partner_id, domain_id, ${cols})
    SELECT property_id, day, min(partner_id), min(domain_id), ${RECEIPT_COUNTS}
    FROM ${STORED} GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (property_id, day) DO UPDATE SET ${added}
  ),
  partner_counted AS (
    INSERT INTO consent_partner_counters AS c (partner_id, day, ${cols})
    SELECT partner_id, day, ${RECEIPT_COUNTS}
    FROM ${STORED} GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, day) DO UPDATE SET ${added}
  )`;

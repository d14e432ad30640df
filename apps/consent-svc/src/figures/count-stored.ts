import { sql } from '@platform/db';

const granted = (category: string) =>
  sql`count(*) FILTER (WHERE cookie AND (body->'subject_data'->'categories'->>${category})::boolean)`;

/**
 * The counters' upsert for the rows of the CTE `stored` (records.repository.ts's insert): one row
 * per property and UTC day, in key order so two groups committing at once never wait on each
 * other's rows in opposite orders (no deadlock). A cookie choice counts as accept all (ALLOWED),
 * reject all (DENIED) or custom (PARTIAL), and once per category it granted; any receipt sent with
 * Global Privacy Control is a GPC opt-out.
 */
export const COUNT_STORED = sql`
  INSERT INTO consent_counters AS c (property_id, day, partner_id, domain_id, accept_all, reject_all, custom,
    gpc_opt_outs, granted_functional, granted_analytics, granted_marketing)
  SELECT property_id, (created_at AT TIME ZONE 'UTC')::date, min(partner_id), min(domain_id),
    count(*) FILTER (WHERE cookie AND receipt_status = 'ALLOWED'),
    count(*) FILTER (WHERE cookie AND receipt_status = 'DENIED'),
    count(*) FILTER (WHERE cookie AND receipt_status = 'PARTIAL'),
    count(*) FILTER (WHERE (body->'meta'->>'gpc')::boolean),
    ${granted('functional')}, ${granted('analytics')}, ${granted('marketing')}
  FROM (SELECT *, receipt_type = 'COOKIE_CONSENT' AS cookie FROM stored) s
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (property_id, day) DO UPDATE SET
    accept_all = c.accept_all + excluded.accept_all,
    reject_all = c.reject_all + excluded.reject_all,
    custom = c.custom + excluded.custom,
    gpc_opt_outs = c.gpc_opt_outs + excluded.gpc_opt_outs,
    granted_functional = c.granted_functional + excluded.granted_functional,
    granted_analytics = c.granted_analytics + excluded.granted_analytics,
    granted_marketing = c.granted_marketing + excluded.granted_marketing`;

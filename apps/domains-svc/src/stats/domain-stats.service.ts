import { DOMAIN_STATUSES, type DomainStats } from '@platform/contracts';
import type { DomainsDatabase } from '../db/tables';
import { countDomainsByStatus, countDomainsPerWeek, type WeekCount } from './domain-stats.repository';

const DAY_MS = 86_400_000;

/** Midnight UTC of the Monday of `at`'s week (ISO weeks, as Postgres's date_trunc('week')). */
export function weekStartUtc(at: Date): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** The Dashboard's domain numbers: every status (0 when none) and `weeks` weeks of the funnel, the current one last. */
export async function domainStats(
  db: DomainsDatabase,
  partnerId: string,
  weeks: number,
  now = new Date(),
): Promise<DomainStats> {
  const since = new Date(weekStartUtc(now).getTime() - (weeks - 1) * 7 * DAY_MS);
  const [statuses, created, invited, activated] = await Promise.all([
    countDomainsByStatus(db, partnerId),
    countDomainsPerWeek(db, partnerId, 'created_at', since),
    countDomainsPerWeek(db, partnerId, 'invited_at', since),
    countDomainsPerWeek(db, partnerId, 'activated_at', since),
  ]);
  const byStatus = Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, 0])) as DomainStats['by_status'];
  for (const row of statuses) if (row.status in byStatus) byStatus[row.status as keyof typeof byStatus] = row.n;
  const perWeek = (rows: WeekCount[]) => new Map(rows.map((r) => [r.week_start, r.n]));
  const [c, i, a] = [perWeek(created), perWeek(invited), perWeek(activated)];
  const funnel = Array.from({ length: weeks }, (_, k) => {
    const week_start = new Date(since.getTime() + k * 7 * DAY_MS).toISOString().slice(0, 10);
    return {
      week_start,
      created: c.get(week_start) ?? 0,
      invited: i.get(week_start) ?? 0,
      activated: a.get(week_start) ?? 0,
    };
  });
  return { by_status: byStatus, funnel };
}

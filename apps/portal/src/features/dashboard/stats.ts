// What the dashboard shows, computed from the domain list (the API has no statistics endpoint yet):
// domains by status, and domains created per week over the last twelve weeks.
import { DOMAIN_STATUSES, type Domain, type DomainStatus } from '@platform/contracts';

export const WEEKS = 12;
const WEEK_MS = 7 * 24 * 3600 * 1000;

export function countByStatus(domains: Pick<Domain, 'status'>[]): Record<DomainStatus, number> {
  const counts = Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, 0])) as Record<DomainStatus, number>;
  for (const d of domains) counts[d.status]++;
  return counts;
}

/** Monday 00:00 UTC of the week `date` falls in. */
export function weekStart(date: Date): number {
  const day = (date.getUTCDay() + 6) % 7;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day);
}

/** Per week (oldest first): its start in seconds, domains created and domains activated that week. */
export function weeklyFunnel(domains: Pick<Domain, 'created_at' | 'activated_at'>[], now = new Date()) {
  const last = weekStart(now);
  const starts = Array.from({ length: WEEKS }, (_, i) => last - (WEEKS - 1 - i) * WEEK_MS);
  const created = starts.map(() => 0);
  const activated = starts.map(() => 0);
  const bump = (series: number[], iso: string | null) => {
    if (!iso) return;
    const index = starts.indexOf(weekStart(new Date(iso)));
    if (index >= 0) series[index]++;
  };
  for (const d of domains) {
    bump(created, d.created_at);
    bump(activated, d.activated_at);
  }
  return { weeks: starts.map((s) => s / 1000), created, activated };
}

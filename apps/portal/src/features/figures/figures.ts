// The consent figures as the stats routes answer them (libs/contracts' ConsentFigures), shaped for
// the chart, the summary and the table: a range of UTC days ending today.
import { FIGURE_CATEGORIES, type ConsentFigures } from '@platform/contracts';
import { secondsOf, type ChartData } from '../dashboard/stats';

/** The ranges offered, in days (today included). */
export const FIGURE_RANGES = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const;
export const DEFAULT_DAYS = 30;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The `days` days ending today (UTC), as the routes' from and to. */
export function rangeOf(days: number, now = Date.now()) {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

/** Notice views and the three kinds of choice per day, oldest first. */
export function figuresChart(f: ConsentFigures): ChartData {
  return {
    x: f.per_day.map((d) => secondsOf(d.date)),
    series: [
      { label: 'Notice views', values: f.per_day.map((d) => d.notice_views) },
      { label: 'Accept all', values: f.per_day.map((d) => d.accept_all) },
      { label: 'Reject all', values: f.per_day.map((d) => d.reject_all) },
      { label: 'Custom', values: f.per_day.map((d) => d.custom) },
    ],
  };
}

export const CATEGORY_LABELS: Record<(typeof FIGURE_CATEGORIES)[number], string> = {
  functional: 'Functional',
  analytics: 'Analytics',
  marketing: 'Marketing',
};

/** A share as a whole percentage; no choice yet reads as a dash. */
export const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** Nothing counted in the range at all. */
export const isEmpty = (f: ConsentFigures) =>
  f.totals.notice_views + f.totals.accept_all + f.totals.reject_all + f.totals.custom + f.totals.gpc_opt_outs === 0;

// The dashboard's figures as the stats routes answer them, shaped for the charts: uPlot wants the x
// values in seconds and one array per series.
import type { DomainStats, ReceiptStats } from '@platform/contracts';

/** How many weeks the funnel shows and how many days the receipts chart shows. */
export const WEEKS = 12;
export const DAYS = 30;

/** A UTC date (YYYY-MM-DD) as uPlot's x value: seconds since the epoch. */
export const secondsOf = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / 1000;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export interface ChartSeries {
  label: string;
  values: number[];
}
export interface ChartData {
  x: number[];
  series: ChartSeries[];
}

/** The weekly funnel, oldest week first: created, invited and activated domains. */
export function funnelChart(funnel: DomainStats['funnel']): ChartData {
  return {
    x: funnel.map((w) => secondsOf(w.week_start)),
    series: [
      { label: 'Created', values: funnel.map((w) => w.created) },
      { label: 'Invited', values: funnel.map((w) => w.invited) },
      { label: 'Activated', values: funnel.map((w) => w.activated) },
    ],
  };
}

/** Consent receipts per day, oldest first, by receipt status. */
export function receiptsChart(perDay: ReceiptStats['per_day']): ChartData {
  return {
    x: perDay.map((d) => secondsOf(d.date)),
    series: [
      { label: 'Allowed', values: perDay.map((d) => d.allowed) },
      { label: 'Partial', values: perDay.map((d) => d.partial) },
      { label: 'Denied', values: perDay.map((d) => d.denied) },
    ],
  };
}

/** Each series' total over the chart's span, for the caption screen readers hear instead of the chart. */
export const totalsOf = (chart: ChartData) => chart.series.map((s) => ({ label: s.label, total: sum(s.values) }));

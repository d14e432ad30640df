// The dashboard's charts from the stats routes' answers: uPlot's x in seconds, one array per series.
import { funnelChart, receiptsChart, secondsOf, totalsOf } from '../src/features/dashboard/stats';

describe('the dashboard charts', () => {
  it('when the weekly funnel is charted, then each week is its Monday in seconds with created, invited and activated', () => {
    const chart = funnelChart([
      { week_start: '2026-11-16', created: 3, invited: 2, activated: 1 },
      { week_start: '2026-11-23', created: 1, invited: 0, activated: 2 },
    ]);
    expect(chart.x).toEqual([Date.UTC(2026, 10, 16) / 1000, Date.UTC(2026, 10, 23) / 1000]);
    expect(chart.series).toEqual([
      { label: 'Created', values: [3, 1] },
      { label: 'Invited', values: [2, 0] },
      { label: 'Activated', values: [1, 2] },
    ]);
    expect(totalsOf(chart)).toEqual([
      { label: 'Created', total: 4 },
      { label: 'Invited', total: 2 },
      { label: 'Activated', total: 3 },
    ]);
  });

  it('when receipts per day are charted, then allowed, partial and denied are series over the days', () => {
    const chart = receiptsChart([
      { date: '2026-11-25', allowed: 5, partial: 1, denied: 2, total: 8 },
      { date: '2026-11-26', allowed: 0, partial: 0, denied: 0, total: 0 },
    ]);
    expect(chart.x).toEqual([secondsOf('2026-11-25'), secondsOf('2026-11-26')]);
    expect(secondsOf('2026-11-26')).toBe(Date.UTC(2026, 10, 26) / 1000);
    expect(chart.series.map((s) => s.label)).toEqual(['Allowed', 'Partial', 'Denied']);
    expect(chart.series.map((s) => s.values)).toEqual([
      [5, 0],
      [1, 0],
      [2, 0],
    ]);
  });

  it('when there is no data, then the chart has no points and zero totals', () => {
    const chart = funnelChart([]);
    expect(chart.x).toEqual([]);
    expect(totalsOf(chart).every((t) => t.total === 0)).toBe(true);
  });
});

import { useEffect, useRef } from 'react';
import { totalsOf, type ChartData } from './stats';

/** The room one x label takes ("23 Nov" and a gap). */
const LABEL_PX = 64;
const dayLabel = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Counts on the y axis in few characters: 1,200 -> 1.2K, so the axis fits a phone. */
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** One colour per series, in order (indigo, amber, green: AA on white). */
const COLOURS = ['#4338ca', '#b45309', '#047857'];

/** Series over time drawn by uPlot (loaded with this screen only); the caption says the totals in words. */
export function TimeChart({ data, span, colours = COLOURS }: { data: ChartData; span: string; colours?: string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = ref.current;
    if (!host) return;
    let plot: { destroy(): void } | undefined;
    let live = true;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (!live) return;
      plot = new UPlot(
        {
          width: Math.max(260, host.clientWidth),
          height: 240,
          series: [
            {},
            ...data.series.map((s, i) => ({
              label: s.label,
              stroke: colours[i % colours.length],
              width: 2,
              ...(i === 0 ? { fill: `${colours[0]}14` } : {}),
            })),
          ],
          axes: [
            // A label on a data point (a week's Monday, a day), as many as fit, dated in UTC as the API counts.
            {
              splits: (u: { width: number }) => {
                const stride = Math.ceil((data.x.length * LABEL_PX) / Math.max(1, u.width));
                return data.x.filter((_, i) => (data.x.length - 1 - i) % stride === 0);
              },
              values: (_: unknown, splits: number[]) => splits.map(dayLabel),
            },
            {
              values: (_: unknown, splits: number[]) => splits.map((v) => compact.format(v)),
              // Wide enough for the longest label (about 7 px a character at the axis font, and the ticks).
              size: (_: unknown, values: string[] | null) =>
                Math.max(40, ...(values ?? []).map((v) => v.length * 7 + 18)),
            },
          ],
          legend: { live: false },
          scales: { x: { time: true } },
        },
        [data.x, ...data.series.map((s) => s.values)],
        host,
      );
    });
    return () => {
      live = false;
      plot?.destroy();
    };
  }, [data, colours]);
  const totals = totalsOf(data);
  return (
    <figure className="chart-figure">
      <div ref={ref} className="chart" aria-hidden="true" />
      <figcaption className="muted">
        {totals.map((t) => `${t.total} ${t.label.toLowerCase()}`).join(', ')} in the last {span}.
      </figcaption>
    </figure>
  );
}

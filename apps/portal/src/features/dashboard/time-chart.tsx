import { useEffect, useRef } from 'react';
import { totalsOf, type ChartData } from './stats';

/** One colour per series, in order (the style guide's indigo, amber, green; AA on white). */
const COLOURS = ['#4338ca', '#b45309', '#047857'];

/** Series over time drawn by uPlot (loaded with this screen only); the caption says the totals in words. */
export function TimeChart({ data, span }: { data: ChartData; span: string }) {
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
              stroke: COLOURS[i % COLOURS.length],
              width: 2,
              ...(i === 0 ? { fill: 'rgba(67,56,202,0.08)' } : {}),
            })),
          ],
          axes: [{}, { size: 40 }],
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
  }, [data]);
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

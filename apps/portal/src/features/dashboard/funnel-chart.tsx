import { useEffect, useRef } from 'react';
import { weeklyFunnel } from './stats';

/** Domains created and activated per week, drawn by uPlot (loaded with this screen only). */
export function FunnelChart({ funnel }: { funnel: ReturnType<typeof weeklyFunnel> }) {
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
          width: Math.max(280, host.clientWidth),
          height: 240,
          series: [
            {},
            { label: 'Created', stroke: '#4338ca', width: 2, fill: 'rgba(67,56,202,0.08)' },
            { label: 'Activated', stroke: '#047857', width: 2 },
          ],
          axes: [{}, { size: 40 }],
          legend: { live: false },
          scales: { x: { time: true } },
        },
        [funnel.weeks, funnel.created, funnel.activated],
        host,
      );
    });
    return () => {
      live = false;
      plot?.destroy();
    };
  }, [funnel]);
  const total = funnel.created.reduce((a, b) => a + b, 0);
  return (
    <figure className="chart-figure">
      <div ref={ref} className="chart" aria-hidden="true" />
      <figcaption className="muted">
        {total} domains created and {funnel.activated.reduce((a, b) => a + b, 0)} activated in the last{' '}
        {funnel.weeks.length} weeks.
      </figcaption>
    </figure>
  );
}

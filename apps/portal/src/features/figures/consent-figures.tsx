// Consent figures on a screen: a range picker, a summary in words (what a screen reader hears), the
// chart (uPlot, loaded with the screen; hidden from assistive technology) and the same figures as a
// table on demand. Used by the domain page, the dashboard and the owner console.
import { FIGURE_CATEGORIES, type ConsentFigures } from '@platform/contracts';
import { useId, useMemo } from 'react';
import { queryState } from '../../api/query-state';
import { DataState } from '../../ui/data-state';
import { SelectField } from '../../ui/field';
import { TableFrame } from '../../ui/misc';
import { TimeChart } from '../dashboard/time-chart';
import { CATEGORY_LABELS, FIGURE_RANGES, figuresChart, isEmpty, percent } from './figures';

/** Views indigo, accept green, reject red, custom amber (AA on white). */
const COLOURS = ['#4338ca', '#047857', '#b91c1c', '#b45309'];
const RANGE_OPTIONS = FIGURE_RANGES.map((r) => ({ value: String(r.days), label: r.label }));

interface QueryLike {
  data: ConsentFigures | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export function RangePicker({ days, onDays }: { days: number; onDays: (days: number) => void }) {
  return (
    <SelectField
      label="Period"
      options={RANGE_OPTIONS}
      value={String(days)}
      onChange={(e) => onDays(Number(e.target.value))}
    />
  );
}

function Summary({ f }: { f: ConsentFigures }) {
  const t = f.totals;
  return (
    <dl className="facts">
      <dt>Notice views</dt>
      <dd>{t.notice_views}</dd>
      <dt>Choices</dt>
      <dd>
        {t.accept_all + t.reject_all + t.custom} ({t.accept_all} accept all, {t.reject_all} reject all, {t.custom}{' '}
        custom)
      </dd>
      <dt>GPC opt-outs</dt>
      <dd>{t.gpc_opt_outs}</dd>
      {FIGURE_CATEGORIES.map((c) => (
        <div key={c} className="contents">
          <dt>{CATEGORY_LABELS[c]} opt-in rate</dt>
          <dd>{percent(f.opt_in_rate[c])}</dd>
        </div>
      ))}
    </dl>
  );
}

function FiguresTable({ f, label }: { f: ConsentFigures; label: string }) {
  return (
    <details>
      <summary>Show the figures per day as a table</summary>
      <TableFrame label={label}>
        <table>
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" className="num">
                Notice views
              </th>
              <th scope="col" className="num">
                Accept all
              </th>
              <th scope="col" className="num">
                Reject all
              </th>
              <th scope="col" className="num">
                Custom
              </th>
              <th scope="col" className="num">
                GPC opt-outs
              </th>
            </tr>
          </thead>
          <tbody>
            {[...f.per_day].reverse().map((d) => (
              <tr key={d.date}>
                <th scope="row" className="nowrap">
                  {d.date}
                </th>
                <td className="num">{d.notice_views}</td>
                <td className="num">{d.accept_all}</td>
                <td className="num">{d.reject_all}</td>
                <td className="num">{d.custom}</td>
                <td className="num">{d.gpc_opt_outs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </details>
  );
}

/** The figures of one query: loading, failed (with Try again), nothing counted yet, or summary, chart and table. */
export function ConsentFiguresView({ query, days, what }: { query: QueryLike; days: number; what: string }) {
  const f = query.data;
  const chart = useMemo(() => (f ? figuresChart(f) : undefined), [f]);
  const span = FIGURE_RANGES.find((r) => r.days === days)?.label.replace('Last ', '') ?? `${days} days`;
  const labelId = useId();
  return (
    <DataState
      {...queryState(query)}
      empty={!!f && isEmpty(f)}
      emptyTitle="Nothing counted in this period"
      emptyText="Notice views and choices are counted as visitors see and answer the widget."
      loadingLabel={`Loading the consent figures of ${what}…`}
    >
      {f && chart && (
        <div aria-labelledby={labelId} role="group">
          <p id={labelId} className="visually-hidden">
            Consent figures of {what}, {f.from} to {f.to}
          </p>
          <Summary f={f} />
          <TimeChart data={chart} span={span} colours={COLOURS} />
          <FiguresTable f={f} label={`Consent figures of ${what} per day`} />
        </div>
      )}
    </DataState>
  );
}

import type { ImportCounts } from '@platform/contracts';

/** A few of an import's counts as labelled figures (a description list: each label with its number). */
export function Counts({
  label,
  counts,
  show,
}: {
  label: string;
  counts: ImportCounts;
  show: [keyof ImportCounts, string][];
}) {
  return (
    <dl className="counts" aria-label={label}>
      {show.map(([key, text]) => (
        <div key={key} className="stat">
          <dt className="stat-label">{text}</dt>
          <dd className="stat-value">{counts[key].toLocaleString('en-GB')}</dd>
        </div>
      ))}
    </dl>
  );
}

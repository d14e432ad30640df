import { IMPORT_COLUMNS, type ImportRow, type ImportRowError } from '@platform/contracts';
import { Link } from 'react-router';
import { routes } from '../../../routes';
import { Badge } from '../../../ui/misc';
import { ROW_STATE_LABELS } from '../labels';

const HEADER_OF = new Map<string, string>(IMPORT_COLUMNS.map((c) => [c.field, c.header]));

/** An error as the partner's file names things: the template's column ("e-mail"), then what is wrong. */
function RowErrors({ errors }: { errors: ImportRowError[] }) {
  if (errors.length === 0) return <>—</>;
  return (
    <ul className="row-errors">
      {errors.map((e, i) => (
        <li key={i}>
          {e.field && <strong>{HEADER_OF.get(e.field) ?? e.field}: </strong>}
          {e.message}
        </li>
      ))}
    </ul>
  );
}

/** The line in the file ("—" for a domain SYNC deactivates, which has none). */
const lineOf = (row: ImportRow) => (row.row === null ? '—' : String(row.row));

export const ERROR_COLUMNS = [{ label: 'Line', className: 'num' }, { label: 'Domain' }, { label: 'What is wrong' }];

/** A row of the plan that will not be imported, with its errors. */
export function PlanErrorRow({ row }: { row: ImportRow }) {
  return (
    <tr>
      <td className="num">{lineOf(row)}</td>
      <td className="break">{row.domain || '—'}</td>
      <td>
        <RowErrors errors={row.errors} />
      </td>
    </tr>
  );
}

export const RESULT_COLUMNS = [
  { label: 'Line', className: 'num' },
  { label: 'Domain' },
  { label: 'Result' },
  { label: 'Why' },
];

const TONE = { DONE: 'green', FAILED: 'red', PENDING: 'yellow', SKIPPED: 'gray' } as const;

/** A row of a run import: its domain (a link once it exists), its state and, when it failed, why. */
export function ResultRow({ row }: { row: ImportRow }) {
  return (
    <tr>
      <td className="num">{lineOf(row)}</td>
      <td className="break">
        {row.domain_id && row.state === 'DONE' ? (
          <Link to={routes.domains.detail({ domainId: row.domain_id })}>{row.domain}</Link>
        ) : (
          row.domain || '—'
        )}
      </td>
      <td>
        <Badge tone={TONE[row.state]}>{ROW_STATE_LABELS[row.state]}</Badge>{' '}
        <span className="muted">{row.outcome.toLowerCase()}</span>
      </td>
      <td>
        <RowErrors errors={row.errors} />
      </td>
    </tr>
  );
}

import type { Domain } from '@platform/contracts';
import { Link } from 'react-router';
import { routes } from '../../../routes';
import type { ListColumn } from '../../../ui/list-section';
import { Badge, formatDate } from '../../../ui/misc';

/** With a selection (bulk product change), each row gets a checkbox. */
export interface Selection {
  selected: Set<string>;
  onSelect: (ids: string[], on: boolean) => void;
}

/** The domain list's columns; with a selection, first a checkbox that selects every row on the page. */
export function domainColumns(rows: Domain[], selection?: Selection): ListColumn[] {
  const all = rows.length > 0 && rows.every((d) => selection?.selected.has(d.id));
  const select: ListColumn[] = selection
    ? [
        {
          label: (
            <input
              type="checkbox"
              aria-label="Select every domain on this page"
              checked={all}
              onChange={(e) =>
                selection.onSelect(
                  rows.map((d) => d.id),
                  e.target.checked,
                )
              }
            />
          ),
        },
      ]
    : [];
  return [
    ...select,
    { label: 'Domain' },
    { label: 'Status' },
    { label: 'Company', className: 'hide-sm' },
    { label: 'Source', className: 'hide-sm' },
    { label: 'Created', className: 'hide-sm' },
  ];
}

export function DomainRow({ domain: d, selection }: { domain: Domain; selection?: Selection }) {
  return (
    <tr>
      {selection && (
        <td>
          <input
            type="checkbox"
            aria-label={`Select ${d.hostname}`}
            checked={selection.selected.has(d.id)}
            onChange={(e) => selection.onSelect([d.id], e.target.checked)}
          />
        </td>
      )}
      <td className="break">
        <Link to={routes.domains.detail({ domainId: d.id })}>{d.hostname}</Link>
      </td>
      <td>
        <Badge>{d.status}</Badge>
      </td>
      <td className="hide-sm">{d.company_trade_name || '—'}</td>
      <td className="hide-sm">{d.source}</td>
      <td className="hide-sm nowrap">{formatDate(d.created_at, false)}</td>
    </tr>
  );
}

import type { Domain } from '@platform/contracts';
import { Link } from 'react-router';
import { routes } from '../../../routes';
import { Badge, formatDate, TableFrame } from '../../../ui/misc';

interface Props {
  rows: Domain[];
  /** With a selection (bulk product change), each row gets a checkbox. */
  selected?: Set<string>;
  onSelect?: (ids: string[], on: boolean) => void;
}

export function DomainsTable({ rows, selected, onSelect }: Props) {
  const all = rows.length > 0 && rows.every((d) => selected?.has(d.id));
  return (
    <TableFrame label="Domains">
      <thead>
        <tr>
          {onSelect && (
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select every domain on this page"
                checked={all}
                onChange={(e) =>
                  onSelect(
                    rows.map((d) => d.id),
                    e.target.checked,
                  )
                }
              />
            </th>
          )}
          <th scope="col">Domain</th>
          <th scope="col">Status</th>
          <th scope="col" className="hide-sm">
            Company
          </th>
          <th scope="col" className="hide-sm">
            Source
          </th>
          <th scope="col" className="hide-sm">
            Created
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id}>
            {onSelect && (
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${d.hostname}`}
                  checked={selected?.has(d.id) ?? false}
                  onChange={(e) => onSelect([d.id], e.target.checked)}
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
        ))}
      </tbody>
    </TableFrame>
  );
}

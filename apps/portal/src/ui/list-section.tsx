import type { ReactNode } from 'react';
import { DataState } from './data-state';
import { TableFrame } from './misc';

export interface ListColumn {
  /** The header; with `hidden` only screen readers hear it (an actions column). */
  label: ReactNode;
  hidden?: boolean;
  /** The header cell's classes: hide-sm (left out below 760 px), num. */
  className?: string;
}

interface Props {
  loading: boolean;
  /** Why loading failed; "Try again" calls onRetry. */
  error?: string;
  onRetry?: () => void;
  /** What the loading status says (a skeleton is what sighted users see). */
  loadingLabel: string;
  /** Loaded, with no row. */
  empty: boolean;
  emptyTitle: string;
  emptyText?: ReactNode;
  /** A table (its accessible name and columns) whose rows are the children; without it the children are the list. */
  table?: { label: string; columns: ListColumn[] };
  /** Shown with the rows only: above them (a bulk action bar), below them (pages). */
  before?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}

/** Every list's shape: a loading status, an error with "Try again", an empty state, or the rows. */
export function ListSection({ table, before, after, children, ...state }: Props) {
  return (
    <DataState {...state}>
      {before}
      {table ? (
        <TableFrame label={table.label}>
          <thead>
            <tr>
              {table.columns.map((c, i) => (
                <th key={i} scope="col" className={c.className}>
                  {c.hidden ? <span className="visually-hidden">{c.label}</span> : c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </TableFrame>
      ) : (
        children
      )}
      {after}
    </DataState>
  );
}

import type { ReactNode } from 'react';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

const TONES: Record<string, string> = {
  ACTIVE: 'green',
  succeeded: 'green',
  completed: 'green',
  Enabled: 'green',
  INVITED: 'blue',
  SCANNED: 'blue',
  running: 'blue',
  queued: 'blue',
  pending: 'yellow',
  NEW: 'gray',
  INACTIVE: 'gray',
  DEACTIVATED: 'gray',
  Revoked: 'gray',
  failed: 'red',
  Disabled: 'red',
};

/** A status word in a coloured pill; the word itself carries the meaning (colour only adds to it). */
export function Badge({ children, tone }: { children: string; tone?: string }) {
  return <span className={`badge badge-${tone ?? TONES[children] ?? 'gray'}`}>{children}</span>;
}

/** A card-like section with a heading. */
export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <div className="card-header">
        <h2>{title}</h2>
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** A table that scrolls sideways on a narrow screen; the scroll region is keyboard focusable and named. */
export function TableFrame({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-frame" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

export function Pagination({
  page,
  hasPrev,
  hasNext,
  onPage,
}: {
  page: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
}) {
  if (!hasPrev && !hasNext) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" className="btn btn-secondary" disabled={!hasPrev} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>Page {page}</span>
      <button type="button" className="btn btn-secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** Dates as the reader's locale writes them; '—' for none. */
export function formatDate(value: string | null | undefined, withTime = true): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
  });
}

import type { ReactNode } from 'react';

interface Props {
  loading: boolean;
  /** A message when loading failed; the retry button calls onRetry. */
  error?: string;
  onRetry?: () => void;
  empty?: boolean;
  emptyTitle?: string;
  emptyText?: ReactNode;
  /** What to say while loading (screen readers hear it; sighted users see a skeleton). */
  loadingLabel?: string;
  children?: ReactNode;
}

/** The three states every list and page has besides its content: loading, failed, empty. */
export function DataState({ loading, error, onRetry, empty, emptyTitle, emptyText, loadingLabel, children }: Props) {
  if (loading) {
    return (
      <div className="state state-loading" role="status">
        <span className="visually-hidden">{loadingLabel ?? 'Loading…'}</span>
        <span className="skeleton" aria-hidden="true" />
        <span className="skeleton" aria-hidden="true" />
        <span className="skeleton skeleton-short" aria-hidden="true" />
      </div>
    );
  }
  if (error) {
    return (
      <div className="state state-error" role="alert">
        <p>{error}</p>
        {onRetry && (
          <button type="button" className="btn btn-secondary" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  }
  if (empty) {
    return (
      <div className="state state-empty">
        <p className="state-title">{emptyTitle ?? 'Nothing here yet'}</p>
        {emptyText && <div className="state-text">{emptyText}</div>}
      </div>
    );
  }
  return <>{children}</>;
}

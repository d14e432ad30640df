import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** While set the button is disabled and says what it is doing (for screen readers too). */
  busy?: boolean;
  busyLabel?: string;
}

export function Button({ variant = 'secondary', busy, busyLabel, children, className, type, ...rest }: Props) {
  return (
    <button
      type={type ?? 'button'}
      className={`btn btn-${variant}${className ? ` ${className}` : ''}`}
      disabled={busy || rest.disabled}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="spinner" aria-hidden="true" />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

/** The shells' Sign out (the partner portal's and the owner console's). */
export const SignOutButton = ({ onSignOut, pending }: { onSignOut: () => void; pending: boolean }) => (
  <Button variant="ghost" className="btn-small" onClick={onSignOut} disabled={pending}>
    Sign out
  </Button>
);

import type { InputHTMLAttributes } from 'react';
import { TextField } from '../ui/field';

/** The 6-digit code field: numeric keypad on phones, the browser's one-time-code autofill. */
export function CodeInput({ error, ...rest }: { error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <TextField
      label="6-digit code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      className="code-input"
      error={error}
      {...rest}
    />
  );
}

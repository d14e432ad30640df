import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

export interface FieldFrame {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** Label, control, hint and the field's error (the API's own, next to the field), wired for screen readers. */
export function Frame({ label, error, hint, id, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export const describedBy = (id: string, { error, hint }: Pick<FieldFrame, 'error' | 'hint'>) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

export function TextField({ label, error, hint, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...input}
      />
    </Frame>
  );
}

export function TextArea({ label, error, hint, ...input }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...input}
      />
    </Frame>
  );
}

interface SelectProps extends FieldFrame, SelectHTMLAttributes<HTMLSelectElement> {
  options: readonly (string | { value: string; label: string })[];
}

export function SelectField({ label, error, hint, options, ...select }: SelectProps) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...select}
      >
        {options.map((o) => {
          const { value, label: text } = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </Frame>
  );
}

export function Checkbox({ label, ...input }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="checkbox">
      <input type="checkbox" {...input} />
      <span>{label}</span>
    </label>
  );
}

/** A form-wide message (an error without a field, or a success note), announced when it appears. */
export function FormMessage({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  return (
    <p className={`form-message form-message-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/**
 * A polite status that stays until the page replaces or clears it (a save's "Saved." until the next
 * edit). The region is always in the page, empty while silent, so screen readers hear each message.
 */
export function StatusMessage({ children }: { children?: ReactNode }) {
  return (
    <p className={children ? 'form-message form-message-success' : 'status-silent'} role="status">
      {children}
    </p>
  );
}

import {
  IMPORT_MAX_FILE_BYTES,
  importTemplateQuerySchema,
  type ImportAction,
  type ImportMode,
} from '@platform/contracts';
import type { FormEvent } from 'react';
import type { z } from 'zod';
import type { FieldErrors } from '../../../forms';
import { Button } from '../../../ui/button';
import { FormMessage, SelectField } from '../../../ui/field';
import { FileField, formatBytes } from '../../../ui/file-field';
import { Section } from '../../../ui/misc';
import { templateRoute } from '../hooks';
import { ACTION_OPTIONS, MODE_LABELS, MODES } from '../labels';

/** The files the API reads: a .csv or the first sheet of an .xlsx. */
export const ACCEPT = '.csv,.xlsx';

/** Why a file is refused before it is sent (its type, its size); undefined when it may go. */
export function fileProblem(file: File | null): string | undefined {
  if (!file) return 'Choose a .csv or .xlsx file.';
  if (!/\.(csv|xlsx)$/i.test(file.name)) return `${file.name} is not a .csv or .xlsx file.`;
  if (file.size > IMPORT_MAX_FILE_BYTES)
    return `The file is ${formatBytes(file.size)}; the most that can be imported is ${formatBytes(IMPORT_MAX_FILE_BYTES)}.`;
  return undefined;
}

/** The template as the API serves it (a download: a plain link, the session cookie goes with it). */
const templateHref = (format: NonNullable<z.input<typeof importTemplateQuerySchema>['format']>) =>
  `${templateRoute.path}?${new URLSearchParams({ format })}`;

export interface FormChoice {
  file: File | null;
  action: ImportAction;
  mode: ImportMode;
}

interface Props {
  choice: FormChoice;
  onChange: (choice: FormChoice) => void;
  errors: FieldErrors;
  busy: boolean;
  onPreview: () => void;
}

/** Step 1: the file, the action for new domains and the mode, and the template to start from. */
export function ImportForm({ choice, onChange, errors, busy, onPreview }: Props) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPreview();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Section title="Choose the file">
        <p className="muted">
          Start from the template: the columns and two example rows. Download it as{' '}
          <a href={templateHref('csv')} download>
            CSV
          </a>{' '}
          or as{' '}
          <a href={templateHref('xlsx')} download>
            Excel (.xlsx)
          </a>
          .
        </p>
        <FileField
          label="File"
          accept={ACCEPT}
          file={choice.file}
          onFile={(file) => onChange({ ...choice, file })}
          hint={`A .csv or .xlsx file of at most ${formatBytes(IMPORT_MAX_FILE_BYTES)} (10,000 rows).`}
          error={errors.asset}
        />
      </Section>
      <Section title="What to do">
        <SelectField
          label="For each new domain"
          name="action"
          options={ACTION_OPTIONS}
          value={choice.action}
          onChange={(e) => onChange({ ...choice, action: e.target.value as ImportAction })}
          error={errors.action}
        />
        <fieldset>
          <legend>Mode</legend>
          {MODES.map((mode) => (
            <label key={mode} className="radio">
              <input
                type="radio"
                name="mode"
                value={mode}
                checked={choice.mode === mode}
                onChange={() => onChange({ ...choice, mode })}
              />
              <span>
                <strong>{MODE_LABELS[mode].label}</strong>: {MODE_LABELS[mode].explanation}
              </span>
            </label>
          ))}
        </fieldset>
      </Section>
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy} busyLabel="Checking the file…">
          Preview
        </Button>
      </div>
    </form>
  );
}

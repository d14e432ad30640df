// Forms validate with the API's own zod schemas: the same messages before sending and after.
import type { z } from 'zod';
import { ApiError } from './api/client';

export type FieldErrors = Record<string, string>;

/** The schema's verdict: the parsed value, or the first message per top-level field. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return { ok: false, errors };
}

/** Field errors from an API answer (VALIDATION.INVALID issues), or a form-wide one. */
export function apiFieldErrors(error: unknown, fallback: (e: unknown) => string): FieldErrors {
  if (error instanceof ApiError) {
    const fields = error.fieldErrors;
    const top: FieldErrors = {};
    for (const [path, message] of Object.entries(fields)) top[path.split('.')[0]] ??= message;
    if (Object.keys(top).length > 0) return top;
  }
  return { form: fallback(error) };
}

/** A form's text fields as an object: empty fields left out, so optional fields stay absent. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === 'string' && value.trim() !== '') values[key] = value;
  });
  return values;
}

/** The checked values of a group of checkboxes sharing one name. */
export const checkedValues = (form: HTMLFormElement, name: string): string[] =>
  new FormData(form).getAll(name).map(String);

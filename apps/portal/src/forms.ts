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

/** As validate(), with each field's whole path ("address.country"): for forms of nested bodies. */
export function validatePaths<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || 'form'] ??= issue.message;
  return { ok: false, errors };
}

/** As apiFieldErrors(), with each field's whole path ("address.country"). */
export function apiPathErrors(error: unknown, fallback: (e: unknown) => string): FieldErrors {
  const fields = error instanceof ApiError ? error.fieldErrors : {};
  return Object.keys(fields).length > 0 ? fields : { form: fallback(error) };
}

/** Field errors from an API answer (VALIDATION.INVALID issues), or a form-wide one. */
export function apiFieldErrors(error: unknown, fallback: (e: unknown) => string, codeField?: string): FieldErrors {
  // A wrong TOTP or recovery code is AUTH.TOTP (401) without field issues: it belongs to the code's field.
  if (codeField && error instanceof ApiError && error.code === 'AUTH.TOTP') return { [codeField]: fallback(error) };
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

/** After a refused submit, focus goes to the first field that says what is wrong (once React has drawn it). */
export const focusFirstError = (form: HTMLFormElement) =>
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

// An accessible form for the onboarding widgets: every input has its label, its hint and its error
// wired with aria-describedby; errors mark the field aria-invalid, a summary is announced (role
// alert) and focus moves to the first field to fix; progress is announced politely (role status).
import type { ErrorObject } from '@platform/contracts';
import { el } from '../widget/dom';

export interface FieldSpec {
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  inputmode?: string;
  maxlength?: number;
  required?: boolean;
  hint?: string;
}

export type Values = Record<string, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class Form {
  readonly element: HTMLFormElement;
  private readonly inputs: Record<string, HTMLInputElement> = {};
  private readonly errors: Record<string, HTMLElement> = {};
  private readonly labels: Record<string, string> = {};
  private readonly alert = el('p', { role: 'alert', class: 'alert' });
  private readonly status = el('p', { role: 'status' });
  private readonly button: HTMLButtonElement;

  constructor(
    id: string,
    private readonly fields: FieldSpec[],
    submitLabel: string,
    onSubmit: (values: Values) => void,
  ) {
    this.button = el('button', { type: 'submit', class: 'btn' }, submitLabel);
    const grid = el('div', { class: 'grid' }, ...fields.map((f) => this.field(id, f)));
    this.element = el('form', { novalidate: true }, grid, this.alert, this.button, this.status);
    this.element.addEventListener('submit', (e) => {
      e.preventDefault();
      const values = this.values();
      const missing = this.check(values);
      if (Object.keys(missing).length > 0) return this.showErrors(missing);
      onSubmit(values);
    });
  }

  private field(id: string, f: FieldSpec): HTMLElement {
    const inputId = id + '-' + f.name;
    const described = [f.hint ? inputId + '-hint' : '', inputId + '-error'].filter(Boolean).join(' ');
    const input = el('input', {
      id: inputId,
      name: f.name,
      type: f.type || 'text',
      autocomplete: f.autocomplete,
      inputmode: f.inputmode,
      maxlength: f.maxlength,
      required: !!f.required,
      'aria-describedby': described,
    });
    input.addEventListener('input', () => this.setError(f.name, ''));
    this.inputs[f.name] = input;
    this.labels[f.name] = f.label;
    this.errors[f.name] = el('p', { id: inputId + '-error', class: 'error' });
    const label = el('label', { for: inputId }, f.label + (f.required ? '' : ' (optional)'));
    const hint = f.hint ? el('p', { id: inputId + '-hint', class: 'hint' }, f.hint) : null;
    return el('div', { class: 'field' }, label, input, hint, this.errors[f.name]);
  }

  /** The filled-in fields, trimmed; empty ones are left out (optional fields stay absent). */
  values(): Values {
    const out: Values = {};
    for (const f of this.fields) {
      const v = this.inputs[f.name].value.trim();
      if (v) out[f.name] = v;
    }
    return out;
  }

  private check(values: Values): Values {
    const problems: Values = {};
    for (const f of this.fields) {
      if (f.required && !values[f.name]) problems[f.name] = 'is required';
      else if (f.type === 'email' && values[f.name] && !EMAIL.test(values[f.name]))
        problems[f.name] = 'must be an e-mail address';
    }
    return problems;
  }

  private setError(name: string, message: string) {
    const input = this.inputs[name];
    if (!input) return;
    this.errors[name].textContent = message ? this.labels[name] + ' ' + message + '.' : '';
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  /** Field errors (by field name), announced, with focus on the first field to fix. */
  showErrors(problems: Values): void {
    let first: HTMLInputElement | undefined;
    for (const f of this.fields) {
      this.setError(f.name, problems[f.name] || '');
      if (problems[f.name] && !first) first = this.inputs[f.name];
    }
    const n = Object.keys(problems).length;
    this.alert.textContent =
      n === 1 ? 'Please correct the marked field.' : 'Please correct the ' + n + ' marked fields.';
    if (first) first.focus();
  }

  /** A message for the whole form (announced), e.g. when the server could not be reached. */
  showAlert(message: string): void {
    this.alert.textContent = message;
  }

  busy(on: boolean, message = ''): void {
    this.button.disabled = on;
    this.status.textContent = message;
    if (on) this.alert.textContent = '';
  }
}

/** A 400's field issues (path body.<field>) as field errors; empty when it names none of the fields. */
export function fieldErrorsOf(error: ErrorObject | undefined): Values {
  const issues = ((error && error.data && error.data.issues) || []) as { path: string; message: string }[];
  const out: Values = {};
  for (const issue of issues) {
    const name = issue.path.replace(/^body\./, '').split('.')[0];
    if (!out[name]) out[name] = issue.message;
  }
  return out;
}

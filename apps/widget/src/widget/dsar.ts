// Data subject requests: access, deletion, correction, opt-out of sale or sharing, portability. The
// server stores the request and e-mails the requester a confirmation link (nobody acts on it before);
// an opt-out is also a receipt there at once, so here it only turns marketing off locally.
import type { DsarBody } from '@platform/contracts';
import type { Api } from './api';
import { el } from './dom';
import type { TextKey } from '@platform/contracts/widget-texts';
import { t } from './texts';

const TYPES: Array<[DsarBody['type'], TextKey]> = [
  ['access', 'dsarAccess'],
  ['deletion', 'dsarDeletion'],
  ['correction', 'dsarCorrection'],
  ['opt_out', 'dsarOptOut'],
  ['portability', 'dsarPortability'],
];

export function dsarForm(api: Api, visitor: () => string, onOptOut: () => void): HTMLElement {
  const status = el('p', { role: 'status', 'aria-live': 'polite' });
  const field = (label: string, control: HTMLElement) =>
    el('div', { class: 'field' }, el('label', { for: control.id }, label), control);
  const type = el(
    'select',
    { name: 'type', id: 'pw-dsar-type' },
    ...TYPES.map(([v, l]) => el('option', { value: v }, t(l))),
  );
  const email = el('input', {
    type: 'email',
    id: 'pw-dsar-email',
    name: 'email',
    required: true,
    autocomplete: 'email',
    maxlength: 254,
  });
  const name = el('input', { type: 'text', id: 'pw-dsar-name', name: 'name', autocomplete: 'name', maxlength: 200 });
  const message = el('textarea', { id: 'pw-dsar-message', name: 'message', rows: 3, maxlength: 2000 });
  const submit = el('button', { type: 'submit', class: 'btn' }, t('dsarSend'));
  const form = el(
    'form',
    { 'aria-labelledby': 'pw-dsar-title' },
    el('h3', { id: 'pw-dsar-title' }, t('dsarTitle')),
    field(t('dsarType'), type),
    field(t('dsarEmail'), email),
    field(t('dsarName'), name),
    field(t('dsarDetails'), message),
    el('div', { class: 'actions' }, submit),
    status,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const body: DsarBody = { type: type.value as DsarBody['type'], email: email.value.trim(), subject: visitor() };
    if (name.value.trim()) body.name = name.value.trim();
    if (message.value.trim()) body.message = message.value.trim();
    submit.disabled = true;
    status.textContent = t('dsarSending');
    api
      .request(body)
      .then(
        (r) => {
          status.textContent = t('dsarDone', { email: body.email, id: r.request_id });
          if (body.type === 'opt_out') onOptOut();
          form.reset();
        },
        () => (status.textContent = t('dsarFailed')),
      )
      .finally(() => (submit.disabled = false));
  });
  return form;
}

// Company details and the data protection officer, as the property's settings give them.
import type { WidgetSettings } from '@platform/contracts';
import { el, type Child } from './dom';
import { t } from './texts';

export function addressLine(a: WidgetSettings['company']['address'] | null | undefined): string {
  if (!a) return '';
  return [a.address, a.address_2, [a.postal_code, a.city].filter(Boolean).join(' '), a.state, a.country]
    .filter(Boolean)
    .join(', ');
}

const mail = (email: string | null | undefined): Child => email && el('a', { href: 'mailto:' + email }, email);

function list(rows: Array<[string, Child]>): HTMLElement {
  const shown = rows.filter(([, v]) => v);
  if (shown.length === 0) return el('p', {}, t('companyNone'));
  return el('dl', {}, ...shown.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

export function companyView(s: WidgetSettings): HTMLElement {
  const c = s.company;
  return el(
    'div',
    {},
    el('h3', {}, t('companyTitle')),
    list([
      [t('companyName'), c && c.name],
      [t('tradeName'), c && c.trade_name],
      [t('address'), addressLine(c && c.address)],
      [t('email'), mail(c && c.email)],
      [t('phone'), c && c.phone_number],
      [t('website'), s.hostname],
    ]),
  );
}

export function dpoView(s: WidgetSettings): HTMLElement {
  const d = s.dpo;
  const known = d && (d.name || d.email);
  return el(
    'div',
    {},
    el('h3', {}, t('tabDpo')),
    known
      ? list([
          [t('personName'), d.name],
          [t('email'), mail(d.email)],
        ])
      : el('p', {}, t('dpoNone')),
  );
}

// Company details and the data protection officer, as the property's settings give them.
import type { WidgetSettings } from '@platform/contracts';
import { el, type Child } from './dom';

export function addressLine(a: WidgetSettings['company']['address'] | null | undefined): string {
  if (!a) return '';
  return [a.address, a.address_2, [a.postal_code, a.city].filter(Boolean).join(' '), a.state, a.country]
    .filter(Boolean)
    .join(', ');
}

const mail = (email: string | null | undefined): Child => email && el('a', { href: 'mailto:' + email }, email);

function list(rows: Array<[string, Child]>): HTMLElement {
  const shown = rows.filter(([, v]) => v);
  if (shown.length === 0) return el('p', {}, 'No company details are on file.');
  return el('dl', {}, ...shown.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

export function companyView(s: WidgetSettings): HTMLElement {
  const c = s.company;
  return el(
    'div',
    {},
    el('h3', {}, 'Who is responsible for this site'),
    list([
      ['Company', c && c.name],
      ['Trade name', c && c.trade_name],
      ['Address', addressLine(c && c.address)],
      ['E-mail', mail(c && c.email)],
      ['Phone', c && c.phone_number],
      ['Website', s.hostname],
    ]),
  );
}

export function dpoView(s: WidgetSettings): HTMLElement {
  const d = s.dpo;
  const known = d && (d.name || d.email);
  return el(
    'div',
    {},
    el('h3', {}, 'Data protection officer'),
    known
      ? list([
          ['Name', d.name],
          ['E-mail', mail(d.email)],
        ])
      : el('p', {}, 'No data protection officer is on file.'),
  );
}

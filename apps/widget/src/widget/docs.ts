// Legal documents generated from the company's and the property's data: a privacy policy (who,
// what, why, rights, contact) and a cookie policy (the categories and how to change a choice).
import type { WidgetSettings } from '@platform/contracts';
import { addressLine } from './company';
import { el } from './dom';

function controller(s: WidgetSettings): string {
  const c = s.company;
  const name = (c && (c.trade_name || c.name)) || 'The operator of ' + s.hostname;
  const where = addressLine(c && c.address);
  return (
    name + (where ? ' (' + where + ')' : '') + ' is responsible for the personal data processed on ' + s.hostname + '.'
  );
}

function collected(s: WidgetSettings): HTMLElement {
  if (s.data_collection.length === 0)
    return el('p', {}, 'No categories of personal data have been declared for this site yet.');
  return el(
    'ul',
    {},
    ...s.data_collection.map((d) => {
      const purposes = (d.purposes || []).map(
        (p) => p.name + (p.legal_base ? ' (legal basis: ' + p.legal_base + ')' : ''),
      );
      const partners = (d.partners || []).map((p) => p.name);
      return el(
        'li',
        {},
        el('strong', {}, d.name),
        d.description ? ': ' + d.description : '',
        purposes.length ? '. Purposes: ' + purposes.join('; ') : '',
        partners.length ? '. Shared with: ' + partners.join(', ') : '',
        '.',
      );
    }),
  );
}

function contact(s: WidgetSettings): string {
  const email = s.company && s.company.email;
  const dpo = s.dpo && s.dpo.email;
  return (
    'To exercise your rights of access, deletion, correction or to opt out of the sale or sharing of your data, use the ' +
    'requests tab of this privacy center' +
    (email ? ' or write to ' + email : '') +
    '.' +
    (dpo ? ' You can reach the data protection officer at ' + dpo + '.' : '') +
    ' You may also complain to your data protection authority.'
  );
}

export function docsView(s: WidgetSettings): HTMLElement {
  return el(
    'div',
    {},
    el('h3', {}, 'Privacy policy'),
    el('p', {}, controller(s)),
    el('p', {}, 'We process the following personal data:'),
    collected(s),
    el('p', {}, contact(s)),
    el('h3', {}, 'Cookie policy'),
    el(
      'p',
      {},
      'This site uses cookies and similar technologies in these categories. Only necessary ones are used without your consent.',
    ),
    el('ul', {}, ...s.categories.map((c) => el('li', {}, el('strong', {}, c.label), ': ' + c.description))),
    el(
      'p',
      {},
      'Your choice is stored in this browser and asked again when the site changes what it asks consent for. ' +
        'You can change it at any time in the consent tab. A Global Privacy Control signal is honoured as an opt-out of sale and sharing.',
    ),
  );
}

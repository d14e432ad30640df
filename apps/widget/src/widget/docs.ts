// Legal documents generated from the company's and the property's data: a privacy policy (who,
// what, why, rights, contact) and a cookie policy (the categories and how to change a choice).
import type { WidgetSettings } from '@platform/contracts';
import { addressLine } from './company';
import { el } from './dom';
import { t } from './texts';

function controller(s: WidgetSettings): string {
  const c = s.company;
  const name = (c && (c.trade_name || c.name)) || t('docsOperator', { host: s.hostname });
  const where = addressLine(c && c.address);
  return t('docsController', { name: name + (where ? ' (' + where + ')' : ''), host: s.hostname });
}

function collected(s: WidgetSettings): HTMLElement {
  if (s.data_collection.length === 0) return el('p', {}, t('docsDataNone'));
  return el(
    'ul',
    {},
    ...s.data_collection.map((d) => {
      const purposes = (d.purposes || []).map((p) =>
        p.legal_base ? t('docsLegalBasis', { purpose: p.name, basis: p.legal_base }) : p.name,
      );
      const partners = (d.partners || []).map((p) => p.name);
      return el(
        'li',
        {},
        el('strong', {}, d.name),
        d.description ? ': ' + d.description : '',
        purposes.length ? '. ' + t('docsPurposes', { list: purposes.join('; ') }) : '',
        partners.length ? '. ' + t('docsSharedWith', { list: partners.join(', ') }) : '',
        '.',
      );
    }),
  );
}

function contact(s: WidgetSettings): string {
  const email = s.company && s.company.email;
  const dpo = s.dpo && s.dpo.email;
  return [
    t('docsRights'),
    email ? t('docsWriteTo', { email }) : '',
    dpo ? t('docsDpoAt', { email: dpo }) : '',
    t('docsComplain'),
  ]
    .filter(Boolean)
    .join(' ');
}

export function docsView(s: WidgetSettings): HTMLElement {
  return el(
    'div',
    {},
    el('h3', {}, t('docsPrivacy')),
    el('p', {}, controller(s)),
    el('p', {}, t('docsDataIntro')),
    collected(s),
    el('p', {}, contact(s)),
    el('h3', {}, t('docsCookies')),
    el('p', {}, t('docsCookiesBody')),
    el('ul', {}, ...s.categories.map((c) => el('li', {}, el('strong', {}, c.label), ': ' + c.description))),
    el('p', {}, t('docsChoiceStored')),
  );
}

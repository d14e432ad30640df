// The per-category form (settings view of the notice and the consent tab of the privacy center):
// necessary is always on; each optional category is a labelled switch; Save records the choice.
import type { WidgetCookie, WidgetSettings } from '@platform/contracts';
import type { Choices } from '../shared/types';
import { el } from './dom';
import { t } from './texts';

const expiry = (c: WidgetCookie) => (c.expires_at ? t('until', { date: c.expires_at.slice(0, 10) }) : t('session'));

/** The cookies the site's scan found in one category (none: no list). Hooks: data-cc-cookie-list, data-cc-cookie="<name>". */
function cookieList(s: WidgetSettings, category: string, label: string): HTMLElement | string {
  const cookies = (s.cookies || []).filter((c) => c.category === category);
  if (cookies.length === 0) return '';
  return el(
    'ul',
    {
      class: 'cookies',
      'data-cc-cookie-list': category,
      'aria-label': t('cookiesOf', { category: label }),
    },
    ...cookies.map((c) =>
      el(
        'li',
        { 'data-cc-cookie': c.name },
        el('code', {}, c.name),
        ' ' + [c.vendor, c.domain, expiry(c)].filter(Boolean).join(' · '),
      ),
    ),
  );
}

export function categoryForm(
  s: WidgetSettings,
  current: Choices,
  idPrefix: string,
  onSave: (c: Choices) => void,
): HTMLFormElement {
  // The settings' own texts (libs/contracts' one table): what the visitor reads is what the receipt states.
  const rows = s.categories.map((c) => {
    const id = idPrefix + '-' + c.name;
    return el(
      'div',
      { class: 'cat' },
      el('input', {
        type: 'checkbox',
        role: 'switch',
        id,
        'aria-describedby': id + '-d',
        'data-consent-category': c.name,
        checked: !!c.required || !!current[c.name as keyof Choices],
        disabled: !!c.required,
      }),
      el(
        'div',
        {},
        el('label', { for: id }, c.label, el('small', { id: id + '-d' }, c.description)),
        cookieList(s, c.name, c.label),
      ),
    );
  });
  // Cookies no source classifies: listed too (the visitor sees everything the site sets), with no switch of their own.
  const other = cookieList(s, 'unclassified', t('other'));
  if (other) rows.push(el('div', { class: 'cat' }, el('div', {}, t('otherCookies'), other)));
  const form = el(
    'form',
    { 'aria-label': t('categoriesLabel') },
    ...rows,
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'btn', 'data-consent-action': 'save' }, t('save')),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = (name: string) =>
      !!form.querySelector<HTMLInputElement>('[data-consent-category="' + name + '"]')?.checked;
    onSave({ functional: value('functional'), analytics: value('analytics'), marketing: value('marketing') });
  });
  return form;
}

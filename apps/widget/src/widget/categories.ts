// The per-category form (settings view of the notice and the consent tab of the privacy center):
// necessary is always on; each optional category is a labelled switch; Save records the choice.
import { OPTIONAL, type Category, type Choices } from '../shared/types';
import type { Cookie, Settings } from './api';
import { el } from './dom';

const LABELS: Record<string, [string, string]> = {
  necessary: ['Necessary', 'Needed for the site to work (security, your privacy choices). Always on.'],
  functional: ['Functional', 'Remembers settings such as language and improves features.'],
  analytics: ['Analytics', 'Measures how the site is used so it can be improved.'],
  marketing: ['Marketing', 'Personalised advertising, and sale or sharing of personal data with partners.'],
};

const expiry = (c: Cookie) => (c.expires_at ? 'until ' + c.expires_at.slice(0, 10) : 'session');

/** The cookies the site's scan found in one category (none: no list). Hooks: data-cc-cookie-list, data-cc-cookie="<name>". */
function cookieList(s: Settings, category: string): HTMLElement | string {
  const cookies = (s.cookies || []).filter((c) => c.category === category);
  if (cookies.length === 0) return '';
  return el(
    'ul',
    {
      class: 'cookies',
      'data-cc-cookie-list': category,
      'aria-label': 'Cookies: ' + (LABELS[category] ? LABELS[category][0] : 'Other'),
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
  s: Settings,
  current: Choices,
  idPrefix: string,
  onSave: (c: Choices) => void,
): HTMLFormElement {
  const rows = ['necessary', ...OPTIONAL].map((name) => {
    const fromSettings = s.categories.find((c) => c.name === name);
    const [label, fallback] = LABELS[name];
    const id = idPrefix + '-' + name;
    const required = name === 'necessary';
    return el(
      'div',
      { class: 'cat' },
      el('input', {
        type: 'checkbox',
        role: 'switch',
        id,
        'aria-describedby': id + '-d',
        'data-consent-category': name,
        checked: required || !!current[name as Category],
        disabled: required,
      }),
      el(
        'div',
        {},
        el(
          'label',
          { for: id },
          label,
          el('small', { id: id + '-d' }, (fromSettings && fromSettings.description) || fallback),
        ),
        cookieList(s, name),
      ),
    );
  });
  // Cookies no source classifies: listed too (the visitor sees everything the site sets), with no switch of their own.
  const other = cookieList(s, 'unclassified');
  if (other) rows.push(el('div', { class: 'cat' }, el('div', {}, 'Other cookies (not yet classified)', other)));
  const form = el(
    'form',
    { 'aria-label': 'Consent categories' },
    ...rows,
    el(
      'div',
      { class: 'actions' },
      el('button', { type: 'submit', class: 'btn', 'data-consent-action': 'save' }, 'Save choices'),
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

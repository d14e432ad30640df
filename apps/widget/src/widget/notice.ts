// The consent notice in the property's notice type and the visitor's regime (data-regime). OPT_IN:
// Accept all and Reject all share one style (equally prominent); Settings swaps in the per-category
// form. OPT_OUT: a short notice with "Do Not Sell or Share" and OK. NOTICE_ONLY: information and OK.
// Non-modal: the page stays usable and focus is not taken; the widget's host is first in the body,
// so the notice comes first in tab order.
import type { Choices } from '../shared/types';
import type { WidgetSettings } from '@platform/contracts';
import { categoryForm } from './categories';
import { el } from './dom';
import { optOutButton } from './optout';
import type { Theme } from './theme';
import { dir, lang, t } from './texts';

export interface NoticeActions {
  choose(c: Choices): void;
  /** Refuses sale and sharing (OPT_OUT's control). */
  optOut(): void;
  /** OK on an OPT_OUT or NOTICE_ONLY notice: the visitor has read it. */
  acknowledge(): void;
}

const ALL = (v: boolean): Choices => ({ functional: v, analytics: v, marketing: v });

/** The notice's box: a corner box (CLASSIC, DISCRETE) on the theme's side, or a bar (FOOTER, TOP). */
function noticeBox(s: WidgetSettings, look: Theme): HTMLElement {
  const type = s.notice_type.toLowerCase();
  const bar = type === 'footer' || type === 'top';
  return el('section', {
    class: 'pw ' + type + (bar ? '' : ' ' + look.position),
    role: 'dialog',
    'aria-modal': 'false',
    'aria-labelledby': 'pw-notice-title',
    'aria-describedby': 'pw-notice-text',
    'data-privacy-widget': true,
    'data-notice-type': s.notice_type,
    lang: lang(),
    dir: dir(),
    'data-regime': s.regime || 'OPT_IN',
  });
}

/** The OPT_OUT and NOTICE_ONLY notices: their sentence, the opt-out control (OPT_OUT) and OK. */
function shortNotice(box: HTMLElement, s: WidgetSettings, act: NoticeActions): void {
  const optOut = s.regime === 'OPT_OUT';
  const done = (run: () => void) => () => {
    box.remove();
    run();
  };
  box.replaceChildren(
    el(
      'div',
      { class: 'row' },
      el(
        'div',
        {},
        el('h2', { id: 'pw-notice-title' }, t('noticeTitle')),
        el('p', { id: 'pw-notice-text' }, optOut ? t('optOutBody') : t('noticeOnlyBody')),
      ),
      el(
        'div',
        { class: 'actions' },
        optOut && optOutButton('btn', done(act.optOut)),
        el(
          'button',
          { type: 'button', class: 'btn', 'data-consent-action': 'ok', onclick: done(act.acknowledge) },
          t('ok'),
        ),
      ),
    ),
  );
}

export function renderNotice(
  shadow: ShadowRoot,
  s: WidgetSettings,
  look: Theme,
  current: Choices,
  act: NoticeActions,
): HTMLElement {
  const box = noticeBox(s, look);
  if (s.regime === 'OPT_OUT' || s.regime === 'NOTICE_ONLY') {
    shadow.append(box);
    shortNotice(box, s, act);
    return box;
  }
  const close = () => box.remove();
  const pick = (c: Choices) => {
    close();
    act.choose(c);
  };
  const button = (action: string, label: string, cls: string, run: () => void) =>
    el('button', { type: 'button', class: cls, 'data-consent-action': action, onclick: run }, label);

  const main = (refocus?: boolean) => {
    const text = s.notice_type === 'DISCRETE' ? t('noticeBrief') : t('noticeBody');
    box.replaceChildren(
      el(
        'div',
        { class: 'row' },
        el('div', {}, el('h2', { id: 'pw-notice-title' }, t('noticeTitle')), el('p', { id: 'pw-notice-text' }, text)),
        el(
          'div',
          { class: 'actions' },
          button('reject', t('rejectAll'), 'btn', () => pick(ALL(false))),
          button('accept', t('acceptAll'), 'btn', () => pick(ALL(true))),
          button('settings', t('settings'), 'ghost', settings),
        ),
      ),
    );
    // Back from the settings view: the button that opened it takes focus again.
    if (refocus) box.querySelector<HTMLElement>('[data-consent-action="settings"]')?.focus();
  };
  const settings = () => {
    box.replaceChildren(
      el('h2', { id: 'pw-notice-title' }, t('settingsTitle')),
      el('p', { id: 'pw-notice-text' }, t('settingsBody')),
      categoryForm(s, current, 'pw-n', pick),
      el('p', {}, el('button', { type: 'button', class: 'ghost', onclick: () => main(true) }, t('back'))),
    );
    focusFirst();
  };
  const focusFirst = () =>
    box.querySelector<HTMLElement>('button,input:not([disabled])')?.focus({ preventScroll: true });
  shadow.append(box);
  main();
  return box;
}

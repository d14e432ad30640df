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

export interface NoticeActions {
  choose(c: Choices): void;
  /** Refuses sale and sharing (OPT_OUT's control). */
  optOut(): void;
  /** OK on an OPT_OUT or NOTICE_ONLY notice: the visitor has read it. */
  acknowledge(): void;
}

const ALL = (v: boolean): Choices => ({ functional: v, analytics: v, marketing: v });
const TEXT =
  'We and our partners use cookies and similar technologies for the purposes below. Necessary ones keep the site working; ' +
  'the others run only if you allow them. You can change your choice at any time in the privacy center.';
/** The OPT_OUT and NOTICE_ONLY notices' words. */
const REGIME_TEXT = {
  optOutTitle: 'Your privacy rights',
  optOut:
    'This site and our partners use cookies and similar technologies for analytics and advertising, which may count as selling ' +
    'or sharing your personal information. You can opt out at any time.',
  noticeTitle: 'Cookies on this site',
  notice:
    'This site uses cookies and similar technologies to work, to measure visits and to show relevant advertising. ' +
    'The privacy center says more.',
  ok: 'OK',
};

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
        el('h2', { id: 'pw-notice-title' }, optOut ? REGIME_TEXT.optOutTitle : REGIME_TEXT.noticeTitle),
        el('p', { id: 'pw-notice-text' }, optOut ? REGIME_TEXT.optOut : REGIME_TEXT.notice),
      ),
      el(
        'div',
        { class: 'actions' },
        optOut && optOutButton('btn', done(act.optOut)),
        el(
          'button',
          { type: 'button', class: 'btn', 'data-consent-action': 'ok', onclick: done(act.acknowledge) },
          REGIME_TEXT.ok,
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
    const text = s.notice_type === 'DISCRETE' ? 'This site uses cookies only with your permission.' : TEXT;
    box.replaceChildren(
      el(
        'div',
        { class: 'row' },
        el(
          'div',
          {},
          el('h2', { id: 'pw-notice-title' }, 'Your privacy choices'),
          el('p', { id: 'pw-notice-text' }, text),
        ),
        el(
          'div',
          { class: 'actions' },
          button('reject', 'Reject all', 'btn', () => pick(ALL(false))),
          button('accept', 'Accept all', 'btn', () => pick(ALL(true))),
          button('settings', 'Settings', 'ghost', settings),
        ),
      ),
    );
    // Back from the settings view: the button that opened it takes focus again.
    if (refocus) box.querySelector<HTMLElement>('[data-consent-action="settings"]')?.focus();
  };
  const settings = () => {
    box.replaceChildren(
      el('h2', { id: 'pw-notice-title' }, 'Choose what you allow'),
      el('p', { id: 'pw-notice-text' }, 'Turn each category on or off, then save.'),
      categoryForm(s, current, 'pw-n', pick),
      el('p', {}, el('button', { type: 'button', class: 'ghost', onclick: () => main(true) }, 'Back')),
    );
    focusFirst();
  };
  const focusFirst = () =>
    box.querySelector<HTMLElement>('button,input:not([disabled])')?.focus({ preventScroll: true });
  shadow.append(box);
  main();
  return box;
}

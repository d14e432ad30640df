// The opt-out of sale and sharing (US state laws): the notice's control and the privacy center's
// view share one action, `data-consent-action="opt-out"`. Texts from the catalogue (optOut*).
import { el } from './dom';
import { t } from './texts';

/** The opt-out control: a button (it acts on this page; no navigation). */
export const optOutButton = (cls: string, run: () => void) =>
  el('button', { type: 'button', class: cls, 'data-consent-action': 'opt-out', onclick: run }, t('optOutLink'));

/** The privacy center's view: what opting out means, the control, and whether the visitor has. */
export function optOutView(optedOut: () => boolean, gpc: boolean, optOut: () => void): HTMLElement {
  const status = el(
    'p',
    { role: 'status', 'aria-live': 'polite' },
    optedOut() ? (gpc ? t('optOutGpc') : t('optOutDone')) : '',
  );
  return el(
    'div',
    {},
    el('h3', {}, t('optOutTitle')),
    el('p', {}, t('optOutBody')),
    optOutButton('btn', () => {
      optOut();
      status.textContent = t('optOutDone');
    }),
    status,
  );
}

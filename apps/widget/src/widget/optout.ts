// The opt-out of sale and sharing (US state laws): the notice's control and the privacy center's
// view share one action, `data-consent-action="opt-out"`. Texts in one place (for the language catalogue).
import { el } from './dom';

export const OPT_OUT_TEXT = {
  control: 'Do Not Sell or Share My Personal Information',
  tab: 'Do Not Sell or Share',
  intro:
    'We and our advertising partners may sell or share your personal information for targeted advertising. ' +
    'You can opt out: marketing and advertising technologies then no longer load on this site.',
  done: 'You have opted out of the sale and sharing of your personal information.',
  gpc: 'Your browser sends Global Privacy Control: you are opted out.',
};

/** The opt-out control: a button (it acts on this page; no navigation). */
export const optOutButton = (cls: string, run: () => void) =>
  el('button', { type: 'button', class: cls, 'data-consent-action': 'opt-out', onclick: run }, OPT_OUT_TEXT.control);

/** The privacy center's view: what opting out means, the control, and whether the visitor has. */
export function optOutView(optedOut: () => boolean, gpc: boolean, optOut: () => void): HTMLElement {
  const status = el(
    'p',
    { role: 'status', 'aria-live': 'polite' },
    optedOut() ? (gpc ? OPT_OUT_TEXT.gpc : OPT_OUT_TEXT.done) : '',
  );
  return el(
    'div',
    {},
    el('h3', {}, OPT_OUT_TEXT.control),
    el('p', {}, OPT_OUT_TEXT.intro),
    optOutButton('btn', () => {
      optOut();
      status.textContent = OPT_OUT_TEXT.done;
    }),
    status,
  );
}

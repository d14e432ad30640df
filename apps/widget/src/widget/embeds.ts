// Embeds held until their category is granted. A marked iframe (`<iframe data-category="marketing"
// data-src="...">`) has no src, so the browser loads nothing; while its category is refused a
// placeholder stands in its box (hook: data-privacy-placeholder) naming the vendor, with "Load once"
// (this embed only, consent unchanged) and "Always allow" (grants the category like the settings
// do, so every held embed of it loads). Embeds added later are found like marked scripts are.
import { embedVendor } from '@platform/contracts/widget-embeds';
import type { WidgetSettings } from '@platform/contracts';
import type { Consent } from '../shared/types';
import { el } from './dom';
import { dir, lang, t } from './texts';

const HELD = 'iframe[data-category][data-src]:not([src])';
const PH_CSS =
  '.ph{display:flex;flex-direction:column;justify-content:center;gap:10px;height:100%;min-height:inherit;' +
  'padding:16px;font-family:var(--pw-font);color:var(--pw-text);font-size:15px;line-height:1.5;background:#fff;' +
  'border:1px solid #6b7280;border-radius:var(--pw-radius)}.ph p{margin:0}';

export interface EmbedHooks {
  consent(): Consent;
  /**
   * Grants one category the way the settings view does (stored, applied, receipt sent); false when
   * it cannot be granted here (marketing while the browser sends Global Privacy Control).
   */
  allow(category: string): boolean;
}

export function holdEmbeds(s: WidgetSettings, css: string, hooks: EmbedHooks): void {
  // Each held iframe's placeholder and its own inline display (given back when it loads).
  const placeholders = new Map<HTMLIFrameElement, { host: HTMLElement; display: string }>();
  const label = (name: string) => (s.categories.find((c) => c.name === name) || { label: name }).label;
  const granted = (name: string) => !!(hooks.consent() as unknown as Record<string, boolean>)[name];

  const load = (frame: HTMLIFrameElement) => {
    const held = placeholders.get(frame);
    if (held) {
      held.host.remove();
      frame.style.display = held.display;
    }
    placeholders.delete(frame);
    frame.src = frame.getAttribute('data-src') || '';
  };

  const hold = (frame: HTMLIFrameElement, n: number) => {
    const category = frame.getAttribute('data-category') || '';
    const host = placeholder(frame, 'pw-ph-' + n, css, label(category), {
      once: () => load(frame),
      always: () => hooks.allow(category),
    });
    placeholders.set(frame, { host, display: frame.style.display });
    frame.style.display = 'none';
    frame.before(host);
  };

  let count = 0;
  const sweep = () =>
    document.querySelectorAll<HTMLIFrameElement>(HELD).forEach((frame) => {
      if (granted(frame.getAttribute('data-category') || '')) load(frame);
      else if (!placeholders.has(frame)) hold(frame, ++count);
    });
  const hasFrame = (n: Node) => n.nodeName === 'IFRAME' || !!(n as Element).querySelector?.('iframe');
  new MutationObserver((records) => {
    if (records.some((r) => Array.from(r.addedNodes).some(hasFrame))) sweep();
  }).observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener('privacywidget:consent', sweep);
  sweep();
}

/** The placeholder in the iframe's box: what is held and why, and the two ways to load it. */
function placeholder(
  frame: HTMLIFrameElement,
  id: string,
  css: string,
  categoryLabel: string,
  on: { once: () => void; always: () => boolean },
): HTMLElement {
  const vendor = embedVendor(frame.getAttribute('data-src') || '', location.href);
  // The iframe's own box (border included), so the page's layout does not move when it loads.
  const width = frame.offsetWidth || Number(frame.getAttribute('width')) || 300;
  const height = frame.offsetHeight || Number(frame.getAttribute('height')) || 150;
  const host = el('div', {
    'data-privacy-placeholder': true,
    'data-category': frame.getAttribute('data-category'),
    'data-vendor': vendor,
    style:
      'display:inline-block;box-sizing:border-box;vertical-align:top;width:' +
      width +
      'px;max-width:100%;min-height:' +
      height +
      'px',
  });
  // Says why "Always allow" changed nothing (GPC keeps marketing off); "Load once" still works.
  const status = el('div', { role: 'status', 'aria-live': 'polite' });
  const always = () => {
    if (!on.always()) status.textContent = t('embedGpc', { category: categoryLabel });
  };
  const button = (action: string, cls: string, text: string, run: () => void) =>
    el(
      'button',
      { type: 'button', class: cls, 'data-consent-action': action, 'aria-describedby': id, onclick: run },
      text,
    );
  host
    .attachShadow({ mode: 'open' })
    .append(
      el('style', {}, css + PH_CSS),
      el(
        'div',
        { class: 'ph', role: 'group', 'aria-labelledby': id, lang: lang(), dir: dir() },
        el(
          'p',
          { id },
          el(
            'strong',
            {},
            vendor
              ? t('embedHeld', { vendor, category: categoryLabel })
              : t('embedHeldAny', { category: categoryLabel }),
          ),
        ),
        el(
          'div',
          { class: 'actions' },
          button('load-once', 'ghost', t('loadOnce'), on.once),
          button('always-allow', 'btn', t('alwaysAllow', { category: categoryLabel }), always),
        ),
        status,
      ),
    );
  return host;
}

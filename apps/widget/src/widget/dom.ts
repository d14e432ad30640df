// A tiny element builder and the Shadow DOM host: the widget's markup and styles live in one open
// shadow root, so the page's CSS cannot reach in and ours cannot leak out.
type Attrs = Record<string, string | boolean | number | null | undefined | ((e: Event) => void)>;
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

let host: HTMLElement | null = null;
let shadow: ShadowRoot | null = null;

export function root(css: string): ShadowRoot {
  if (shadow && host && host.isConnected) return shadow;
  host = el('div', { 'data-privacy-widget-host': true });
  shadow = host.attachShadow({ mode: 'open' });
  shadow.append(el('style', {}, css));
  document.body.prepend(host); // first in tab order: keyboard users meet the notice first
  return shadow;
}

/** The element focused inside the widget, or on the page. */
export function focused(): Element | null {
  return (shadow && shadow.activeElement) || document.activeElement;
}

const FOCUSABLE = 'button:not([disabled]),input:not([disabled]),select,textarea,a[href],[tabindex="0"]';

export function focusables(box: Element): HTMLElement[] {
  return Array.from(box.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((n) => n.getAttribute('tabindex') !== '-1');
}

/** Keeps Tab and Shift+Tab inside a modal dialog; Escape calls onEscape. */
export function trapFocus(box: HTMLElement, onEscape: () => void): void {
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onEscape();
      return;
    }
    if (e.key !== 'Tab') return;
    const items = focusables(box);
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    const now = focused();
    if (e.shiftKey && (now === first || !box.contains(now))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (now === last || !box.contains(now))) {
      e.preventDefault();
      first.focus();
    }
  });
}

export function whenBody(run: () => void): void {
  if (document.body) run();
  else document.addEventListener('DOMContentLoaded', run);
}

// The privacy center: a modal dialog with one tab per enabled feature (WAI-ARIA tabs pattern:
// arrow keys, Home/End; focus trapped; Escape closes and focus returns where it was).
import type { WidgetSettings } from '@platform/contracts';
import { el, focused, trapFocus } from './dom';
import { dir, lang, t } from './texts';

export interface Tab {
  view: 'consent' | 'optout' | 'dsar' | 'docs' | 'accessibility' | 'company' | 'dpo';
  label: string;
  render(): Node;
}

export function tabsFor(s: WidgetSettings, all: Record<Tab['view'], Tab>): Tab[] {
  const on: Record<Tab['view'], boolean> = {
    consent: true,
    // Where the law is an opt-out: "Do Not Sell or Share" as its own view.
    optout: s.regime === 'OPT_OUT',
    dsar: s.has_dsar,
    docs: s.has_docs,
    accessibility: s.has_accessibility,
    company: s.display_company,
    dpo: s.display_dpo,
  };
  return (Object.keys(all) as Tab['view'][]).filter((v) => on[v]).map((v) => all[v]);
}

let open: { close(): void } | null = null;

/** The tab buttons and their panel; `select` shows one tab (arrow keys, Home and End move between them). */
function tabList(tabs: Tab[]) {
  const panel = el('div', { role: 'tabpanel', id: 'pw-panel', tabindex: '0' });
  const buttons = tabs.map((t) =>
    el(
      'button',
      { type: 'button', role: 'tab', id: 'pw-tab-' + t.view, 'aria-controls': 'pw-panel', 'data-privacy-view': t.view },
      t.label,
    ),
  );
  const select = (i: number, focus: boolean) => {
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(i === j));
      b.setAttribute('tabindex', i === j ? '0' : '-1');
    });
    panel.setAttribute('aria-labelledby', buttons[i].id);
    panel.replaceChildren(tabs[i].render());
    if (focus) buttons[i].focus();
  };
  buttons.forEach((b, i) => {
    b.addEventListener('click', () => select(i, true));
    b.addEventListener('keydown', (e) => {
      const next = dir() === 'rtl' ? -1 : 1; // right to left: ArrowLeft moves to the next tab
      const to = { ArrowRight: i + next, ArrowLeft: i - next, Home: 0, End: buttons.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      select((to + buttons.length) % buttons.length, true);
    });
  });
  const list = el('div', { role: 'tablist', 'aria-label': t('sections') }, ...buttons);
  return { list, panel, select };
}

function dialogOf(tabs: { list: HTMLElement; panel: HTMLElement }, close: () => void): HTMLElement {
  return el(
    'div',
    {
      class: 'pw center',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'pw-center-title',
      'data-privacy-center': true,
      lang: lang(),
      dir: dir(),
    },
    el(
      'div',
      { class: 'head' },
      el('h2', { id: 'pw-center-title' }, t('centerTitle')),
      el('button', { type: 'button', class: 'ghost', 'aria-label': t('closeLabel'), onclick: close }, t('close')),
    ),
    tabs.list,
    tabs.panel,
  );
}

export function openCenter(shadow: ShadowRoot, tabs: Tab[], start: string | undefined, onClose: () => void): void {
  if (open) open.close();
  const returnTo = focused() as HTMLElement | null;
  const close = () => {
    overlay.remove();
    open = null;
    onClose();
    if (returnTo && returnTo.isConnected) returnTo.focus();
  };
  const list = tabList(tabs);
  const dialog = dialogOf(list, close);
  const overlay = el('div', { class: 'overlay' }, dialog);
  overlay.addEventListener('click', (e) => e.target === overlay && close());
  trapFocus(dialog, close);
  shadow.append(overlay);
  open = { close };
  list.select(
    Math.max(
      0,
      tabs.findIndex((t) => t.view === start),
    ),
    true,
  );
}

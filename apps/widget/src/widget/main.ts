// The widget bundle, loaded by the loader. It reads the property's public settings (one cacheable
// request), reports the page view while the property is not yet active, then either honours a
// current choice, records a GPC opt-out, or shows the notice. window.PrivacyWidget.open() opens the
// privacy center. Nothing here may break the page: every failure leaves scripts blocked, silently.
import type { WidgetSettings } from '@platform/contracts';
import { save } from '../shared/store';
import { consentOf, type Choices, type PublicApi } from '../shared/types';
import { a11yView, applyA11y } from './a11y';
import { Api } from './api';
import { categoryForm } from './categories';
import { openCenter, tabsFor, type Tab } from './center';
import { ChoiceKeeper, gpcSignal } from './choice';
import { companyView, dpoView } from './company';
import { docsView } from './docs';
import { el, root, whenBody } from './dom';
import { dsarForm } from './dsar';
import { holdEmbeds } from './embeds';
import { renderNotice } from './notice';
import { CSS } from './styles';
import { theme } from './theme';

const pw = (window as Window & { PrivacyWidget?: PublicApi }).PrivacyWidget;
if (pw && pw._ && !pw._.booted) {
  pw._.booted = true;
  const api = new Api(pw._.base, pw._.id);
  api.settings().then(
    (s) => whenBody(() => boot(pw, api, s)),
    () => undefined, // API down: scripts stay blocked, the page carries on
  );
}

function boot(pw: PublicApi, api: Api, s: WidgetSettings): void {
  if (!s.active) api.view().catch(() => undefined);
  const look = theme(s);
  const shadow = root(look.vars + CSS);
  const keeper = new ChoiceKeeper(pw._, api, s);
  // Tell the next page's loader whether a stored choice is stale (another revision, or too old).
  save(pw._.id, 'rev', s.consent_revision);
  save(pw._.id, 'max', keeper.maxAge());
  if (s.has_accessibility) applyA11y(pw._.id);
  let notice: HTMLElement | null = null;
  const choose = (c: Choices) => {
    if (notice) notice.remove();
    notice = null;
    keeper.decide(c, gpcSignal());
  };
  const showNotice = () => {
    if (notice || keeper.current() || !s.has_scripts) return;
    notice = renderNotice(shadow, s, look, pw._.consent, { choose });
    api.noticeView();
  };
  const tabs: Record<Tab['view'], Tab> = {
    consent: { view: 'consent', label: 'Consent preferences', render: () => consentTab(s, pw, choose) },
    dsar: { view: 'dsar', label: 'Requests', render: () => dsarForm(api, () => keeper.visitor(), optOut) },
    docs: { view: 'docs', label: 'Policies', render: () => docsView(s) },
    accessibility: { view: 'accessibility', label: 'Accessibility', render: () => a11yView(pw._.id) },
    company: { view: 'company', label: 'Company', render: () => companyView(s) },
    dpo: { view: 'dpo', label: 'Data protection officer', render: () => dpoView(s) },
  };
  const optOut = () => keeper.decide({ ...pw._.consent, marketing: false }, gpcSignal(), false);
  pw.open = (view?: string) => {
    if (notice) notice.remove();
    notice = null;
    openCenter(shadow, tabsFor(s, tabs), view, showNotice);
  };
  firstDecision(s, pw, keeper, showNotice);
  holdEmbeds(s, look.vars + CSS, { consent: () => pw._.consent, allow: (c) => choose({ ...pw._.consent, [c]: true }) });
  const queued = pw._.queue.splice(0);
  if (queued.length) pw.open(queued[queued.length - 1]);
}

/** A current choice stands; else GPC opts out without asking; else nothing to block, or ask. */
function firstDecision(s: WidgetSettings, pw: PublicApi, keeper: ChoiceKeeper, ask: () => void): void {
  if (keeper.current()) return keeper.resend();
  if (gpcSignal()) return keeper.decide({ functional: false, analytics: false, marketing: false }, true);
  if (!s.has_scripts) return pw._.apply(consentOf({ functional: true, analytics: true, marketing: true }), true);
  ask();
}

function consentTab(s: WidgetSettings, pw: PublicApi, choose: (c: Choices) => void): HTMLElement {
  const status = el('p', { role: 'status', 'aria-live': 'polite' });
  const form = categoryForm(s, pw._.consent, 'pw-c', (c) => {
    choose(c);
    status.textContent = 'Your choices were saved.';
  });
  return el(
    'div',
    {},
    el('h3', {}, 'Consent preferences'),
    el('p', {}, 'Choose which categories this site may use.'),
    form,
    status,
  );
}

// The widget bundle, loaded by the loader. It reads the property's public settings (one cacheable
// request), reports the page view while the property is not yet active, then either honours a
// current choice, records a GPC opt-out, or shows the notice the visitor's regime calls for (see
// firstDecision). window.PrivacyWidget.open() opens the privacy center. Nothing here may break the page: every failure leaves scripts blocked, silently.
import type { WidgetSettings } from '@platform/contracts';
import { save } from '../shared/store';
import { consentOf, openConsent, type Choices, type ModeHint, type PublicApi } from '../shared/types';
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
import { optOutView } from './optout';
import { CSS } from './styles';
import { t, useLanguage, visitorLanguage } from './texts';
import { theme } from './theme';

const pw = (window as Window & { PrivacyWidget?: PublicApi }).PrivacyWidget;
if (pw && pw._ && !pw._.booted) {
  pw._.booted = true;
  const api = new Api(pw._.base, pw._.id);
  // The visitor's language goes in the URL; the answer names the one to render (its pack loads first).
  api.settings(visitorLanguage()).then(
    (s) => useLanguage(pw._, s.language || 'en', s.texts || {}).then(() => whenBody(() => boot(pw, api, s))),
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
  consentModeSwitches(pw, s);
  if (s.has_accessibility) applyA11y(pw._.id);
  let notice: HTMLElement | null = null;
  const choose = (c: Choices) => {
    if (notice) notice.remove();
    notice = null;
    keeper.decide(c, gpcSignal());
  };
  // Do Not Sell or Share: marketing (sale, sharing) refused, the rest as it stands; a receipt records it.
  const refuse = () => {
    if (notice) notice.remove();
    notice = null;
    keeper.decide({ ...pw._.consent, marketing: false }, gpcSignal());
  };
  const acknowledge = () => choose(pw._.consent);
  const showNotice = () => {
    if (notice || keeper.current() || !s.has_scripts) return;
    notice = renderNotice(shadow, s, look, pw._.consent, { choose, optOut: refuse, acknowledge });
    api.noticeView();
  };
  const tabs: Record<Tab['view'], Tab> = {
    consent: { view: 'consent', label: t('tabConsent'), render: () => consentTab(s, pw, choose) },
    optout: {
      view: 'optout',
      label: t('tabOptOut'),
      render: () => optOutView(() => !!keeper.current() && !pw._.consent.marketing, gpcSignal(), refuse),
    },
    dsar: { view: 'dsar', label: t('tabDsar'), render: () => dsarForm(api, () => keeper.visitor(), optOut) },
    docs: { view: 'docs', label: t('tabDocs'), render: () => docsView(s) },
    accessibility: { view: 'accessibility', label: t('tabA11y'), render: () => a11yView(pw._.id) },
    company: { view: 'company', label: t('tabCompany'), render: () => companyView(s) },
    dpo: { view: 'dpo', label: t('tabDpo'), render: () => dpoView(s) },
  };
  const optOut = () => keeper.decide({ ...pw._.consent, marketing: false }, gpcSignal(), false);
  pw.open = (view?: string) => {
    if (notice) notice.remove();
    notice = null;
    openCenter(shadow, tabsFor(s, tabs), view, showNotice);
  };
  firstDecision(s, pw, keeper, showNotice);
  holdEmbeds(s, look.vars + CSS, {
    consent: () => pw._.consent,
    // GPC is a standing opt-out of sale and sharing: marketing is not granted while it is on.
    allow: (c) => (c === 'marketing' && gpcSignal() ? false : (choose({ ...pw._.consent, [c]: true }), true)),
  });
  const queued = pw._.queue.splice(0);
  if (queued.length) pw.open(queued[queued.length - 1]);
}

/**
 * A current choice stands. Else, OPT_IN: GPC refuses everything optional without asking; nothing to
 * block runs all; otherwise ask. OPT_OUT and NOTICE_ONLY: everything runs at once (but marketing,
 * sale and sharing, under GPC: that opt-out is recorded without a click) and the notice says so.
 */
function firstDecision(s: WidgetSettings, pw: PublicApi, keeper: ChoiceKeeper, ask: () => void): void {
  if (keeper.current()) return keeper.resend();
  const gpc = gpcSignal();
  if (s.regime === 'OPT_OUT' || s.regime === 'NOTICE_ONLY') {
    if (gpc) return keeper.decide(openConsent(true), true);
    pw._.apply(openConsent(false), true);
    return ask();
  }
  if (gpc) return keeper.decide({ functional: false, analytics: false, marketing: false }, true);
  if (!s.has_scripts) return pw._.apply(consentOf({ functional: true, analytics: true, marketing: true }), true);
  ask();
}

/** Consent Mode's switches from the settings, and the regime, kept for the next page's loader. */
function consentModeSwitches(pw: PublicApi, s: WidgetSettings): void {
  const mode = s.consent_mode;
  const hint: ModeHint = { r: s.regime, d: mode && mode.ads_data_redaction, u: mode && mode.url_passthrough };
  if (hint.d !== undefined) pw._.gtag('set', 'ads_data_redaction', hint.d);
  if (hint.u !== undefined) pw._.gtag('set', 'url_passthrough', hint.u);
  save(pw._.id, 'cm', hint);
}

function consentTab(s: WidgetSettings, pw: PublicApi, choose: (c: Choices) => void): HTMLElement {
  const status = el('p', { role: 'status', 'aria-live': 'polite' });
  const form = categoryForm(s, pw._.consent, 'pw-c', (c) => {
    choose(c);
    status.textContent = t('saved');
  });
  return el('div', {}, el('h3', {}, t('tabConsent')), el('p', {}, t('consentBody')), form, status);
}

// The loader the snippet loads synchronously, first in <head>. Before any tag runs it sets Google
// Consent Mode v2 defaults (denied; granted in the US states with an opt-out law), re-applies a
// stored choice (or, with none, what the visitor's regime allows as the last page learnt it), revives the marked scripts
// (`<script type="text/plain" data-category="...">`) whose category is granted as the page parses,
// and loads the widget bundle asynchronously. If the API is down nothing else happens: marked
// scripts stay blocked and the page works.
import { OPT_OUT_REGIONS } from '@platform/contracts/widget-regime';
import { fresh, load, loadChoice } from './shared/store';
import { consentOf, openConsent, type Consent, type LoaderState, type ModeHint, type PublicApi } from './shared/types';

type Win = Window & { dataLayer?: unknown[]; PrivacyWidget?: PublicApi };
const win = window as Win;
const dataLayer = (win.dataLayer = win.dataLayer || []);
// gtag.js only reads Arguments objects from the dataLayer, hence `arguments` and not rest args.
const gtag = function (..._args: unknown[]) {
  // eslint-disable-next-line prefer-rest-params
  dataLayer.push(arguments);
};
const state = (b: boolean) => (b ? 'granted' : 'denied');
const consentMode = (c: Consent) => ({
  functionality_storage: state(c.functional),
  personalization_storage: state(c.functional),
  analytics_storage: state(c.analytics),
  ad_storage: state(c.marketing),
  ad_user_data: state(c.marketing),
  ad_personalization: state(c.marketing),
});
const denied = consentOf({ functional: false, analytics: false, marketing: false });
const gpc = (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
// Region defaults: where the law is an opt-out, Google tags may use storage until the visitor opts
// out (GPC is one); elsewhere nothing until a choice. The more specific (region) default wins.
gtag('consent', 'default', {
  ...consentMode(openConsent(gpc)),
  security_storage: 'granted',
  region: OPT_OUT_REGIONS,
  wait_for_update: 500,
});
gtag('consent', 'default', { ...consentMode(denied), security_storage: 'granted', wait_for_update: 500 });

const BLOCKED = 'script[type="text/plain"][data-category]';
const me = document.currentScript as HTMLScriptElement | null;
const found = /^(.*)\/widget\/v1\/([^/?#]+)\/loader\.js/.exec((me && me.src) || '');

if (found && !win.PrivacyWidget) start(found[1], decodeURIComponent(found[2]));

function start(base: string, id: string) {
  // A choice (the site-wide cookie, else this origin's storage) stands unless the bundle has since
  // seen a newer consent revision or it is older than the property's max age (then it asks again).
  const saved = loadChoice(id);
  const seen = load<string>(id, 'rev');
  const max = load<number>(id, 'max') || 365;
  const stored = saved && saved.c && (!seen || seen === saved.rev) && fresh(saved, max) ? saved : null;
  // What the last page's settings said (the regime, the Consent Mode switches): with no choice, an
  // OPT_OUT or NOTICE_ONLY visitor's optional scripts run now, not only once the settings arrive.
  const hint = load<ModeHint>(id, 'cm') || {};
  if (hint.d !== undefined) gtag('set', 'ads_data_redaction', hint.d);
  if (hint.u !== undefined) gtag('set', 'url_passthrough', hint.u);
  const open = !stored && (hint.r === 'OPT_OUT' || hint.r === 'NOTICE_ONLY');
  const pw: LoaderState = {
    id,
    base,
    gtag,
    consent: stored ? consentOf(stored.c) : open ? openConsent(gpc) : denied,
    queue: [],
    apply(consent, announce) {
      pw.consent = consent;
      gtag('consent', 'update', consentMode(consent));
      document.querySelectorAll<HTMLScriptElement>(BLOCKED).forEach(revive);
      if (announce) win.dispatchEvent(new CustomEvent('privacywidget:consent', { detail: { ...consent } }));
    },
  };
  win.PrivacyWidget = { open: (view) => pw.queue.push(view), getConsent: () => ({ ...pw.consent }), _: pw };

  const granted = (name: string) => name === 'necessary' || !!(pw.consent as unknown as Record<string, boolean>)[name];
  // A revived copy replaces the blocked one: same attributes and text, the real type, document order kept.
  function revive(old: HTMLScriptElement) {
    if (old.type !== 'text/plain' || !granted(old.getAttribute('data-category') || '')) return;
    const fresh = document.createElement('script');
    for (const a of Array.from(old.attributes)) if (a.name !== 'type') fresh.setAttribute(a.name, a.value);
    const realType = old.getAttribute('data-type');
    if (realType) fresh.type = realType;
    if (old.src) fresh.async = old.hasAttribute('async');
    fresh.text = old.text;
    if (old.parentNode) old.parentNode.replaceChild(fresh, old);
  }
  if (stored || open) gtag('consent', 'update', consentMode(pw.consent));
  // While the page parses, an inline script is complete once something follows it. Only mutations
  // that add a script (or the node after one) trigger a sweep, so busy pages pay next to nothing.
  const complete = (s: HTMLScriptElement) => !!s.nextSibling || document.readyState !== 'loading';
  const sweep = () => document.querySelectorAll<HTMLScriptElement>(BLOCKED).forEach((s) => complete(s) && revive(s));
  const isScript = (n: Node | null) => !!n && n.nodeName === 'SCRIPT';
  new MutationObserver((records) => {
    const touched = records.some((r) =>
      Array.from(r.addedNodes).some(
        (n) => isScript(n) || isScript(n.previousSibling) || !!(n as Element).querySelector?.('script'),
      ),
    );
    if (touched) sweep();
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', sweep);

  const bundle = document.createElement('script');
  bundle.async = true;
  bundle.src = base + '/widget/v1/assets/__WIDGET_BUNDLE__';
  (document.head || document.documentElement).appendChild(bundle);
}

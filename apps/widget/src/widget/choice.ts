// A visitor's choice: stored per property with the consent revision in a cookie on the site's
// registrable domain (this origin's storage when cookies are off), made effective through the
// loader (Consent Mode + script revival + event) and sent as a receipt (resent later if the API
// was down, with the same nonce so the server can refuse a double).
import { cookieName, fresh, load, loadChoice, save, toCookie, type StoredChoice } from '../shared/store';
import { consentOf, type Choices, type LoaderState } from '../shared/types';
import type { WidgetSettings } from '@platform/contracts';
import type { Api } from './api';
import { lang } from './texts';

export const WIDGET_VERSION = '1.0.0';

function randomId(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...Array.from(raw)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export const gpcSignal = (): boolean =>
  (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

export class ChoiceKeeper {
  constructor(
    private readonly pw: LoaderState,
    private readonly api: Api,
    private readonly settings: WidgetSettings,
  ) {}

  stored(): StoredChoice | null {
    return loadChoice(this.pw.id);
  }

  /** Days a choice stands (the settings', 12 months from an API that does not send it yet). */
  maxAge(): number {
    return this.settings.consent_max_age_days || 365;
  }

  /** A choice answering the property's current revision, younger than its max age. */
  current(): StoredChoice | null {
    const c = this.stored();
    return c && c.rev === this.settings.consent_revision && fresh(c, this.maxAge()) ? c : null;
  }

  /**
   * Keeps a choice in the cookie (Domain: the registrable domain when this page is on it, so the
   * property's hostname and subdomains share it; expiring with the choice); when cookies are off,
   * in this origin's storage. A stored copy is dropped once the cookie holds, so there is one truth.
   */
  private keep(entry: StoredChoice): void {
    const { cookie_domain: domain } = this.settings;
    const host = location.hostname;
    const onDomain = domain && (host === domain || host.endsWith('.' + domain));
    const seconds = Math.max(0, Math.floor((entry.at + this.maxAge() * 864e5 - Date.now()) / 1000));
    document.cookie =
      cookieName(this.pw.id) +
      '=' +
      toCookie(entry) +
      '; Path=/; SameSite=Lax; Max-Age=' +
      seconds +
      (onDomain ? '; Domain=' + domain : '') +
      (location.protocol === 'https:' ? '; Secure' : '');
    const held = this.stored();
    save(this.pw.id, 'choice', held && held.nonce === entry.nonce && held.at === entry.at ? null : entry);
  }

  visitor(): string {
    let id = load<string>(this.pw.id, 'visitor');
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
      id = randomId(18);
      save(this.pw.id, 'visitor', id);
    }
    return id;
  }

  /** Records and applies a choice; `sendReceipt` false when the server already made one (DSAR opt-out). */
  decide(choices: Choices, gpc: boolean, sendReceipt = true): void {
    const entry: StoredChoice = {
      rev: this.settings.consent_revision,
      // GPC is a standing opt-out of sale and sharing: it wins over a marketing tick (the server records it so too).
      c: { functional: !!choices.functional, analytics: !!choices.analytics, marketing: !!choices.marketing && !gpc },
      gpc,
      at: Date.now(),
      sent: !sendReceipt,
      nonce: randomId(24),
    };
    this.keep(entry);
    this.pw.apply(consentOf(entry.c), true);
    if (sendReceipt) this.send(entry);
  }

  /** Sends a stored receipt the API has not accepted yet. */
  resend(): void {
    const c = this.current();
    if (c && c.sent === false && c.nonce) this.send(c);
  }

  private send(entry: StoredChoice, tries = 0): void {
    this.api
      .receipt({
        receipt_type: 'COOKIE_CONSENT',
        subject: this.visitor(),
        consent_revision: entry.rev,
        categories: entry.c,
        gpc: !!entry.gpc,
        widget_version: WIDGET_VERSION,
        nonce: entry.nonce as string,
        language: lang(), // the record states the categories' texts in the language the visitor reads
        // The notice the visitor answered (the property may pin one); recorded beside the jurisdiction.
        ...(this.settings.regime ? { regime: this.settings.regime } : {}),
      })
      .then(
        () => this.markSent(entry.nonce),
        // A 404 may be a property created moments ago that the receipt service does not know yet:
        // tried again shortly (0.3, 0.6, 1.2 s), then kept unsent for the next page. Another 4xx but
        // 429 (e.g. RECEIPT.REPLAYED: an earlier try got through) never changes on a retry. Anything
        // else (outage, 429, 5xx): kept unsent, the next page tries again.
        (e: { status?: number }) => {
          const status = (e && e.status) || 0;
          if (status === 404 && tries < 3) setTimeout(() => this.send(entry, tries + 1), 300 << tries);
          else if (status >= 400 && status < 500 && status !== 429 && status !== 404) this.markSent(entry.nonce);
        },
      );
  }

  private markSent(nonce?: string): void {
    const c = this.stored();
    if (c && c.nonce === nonce) this.keep({ ...c, sent: true });
  }
}

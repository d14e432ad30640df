// A visitor's choice: stored per property with the consent revision, made effective through the
// loader (Consent Mode + script revival + event) and sent as a receipt (resent later if the API
// was down, with the same nonce so the server can refuse a double).
import { load, save, type StoredChoice } from '../shared/store';
import { consentOf, type Choices, type LoaderState } from '../shared/types';
import type { WidgetSettings } from '@platform/contracts';
import type { Api } from './api';

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
    return load<StoredChoice>(this.pw.id, 'choice');
  }

  /** A choice answering the property's current revision. */
  current(): StoredChoice | null {
    const c = this.stored();
    return c && c.rev === this.settings.consent_revision ? c : null;
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
    save(this.pw.id, 'choice', entry);
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
    if (c && c.nonce === nonce) save(this.pw.id, 'choice', { ...c, sent: true });
  }
}

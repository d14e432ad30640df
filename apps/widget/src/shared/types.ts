// Shapes shared by the loader and the bundle (the wire shapes are libs/contracts', imported as types only).
import type { ReceiptBody } from '@platform/contracts';

/** A visitor's answer per optional category: the receipt's `categories`. */
export type Choices = ReceiptBody['categories'];
export interface Consent extends Choices {
  necessary: true;
}

/** What the loader hands the bundle through window.PrivacyWidget._ (internal, not public API). */
export interface LoaderState {
  id: string;
  base: string;
  consent: Consent;
  /** Makes a consent effective: Consent Mode update, blocked scripts revived, event when `announce`. */
  apply(consent: Consent, announce: boolean): void;
  /** gtag() on window.dataLayer (Consent Mode's `set` switches from the settings). */
  gtag(...args: unknown[]): void;
  /** open() calls made before the bundle took over. */
  queue: Array<string | undefined>;
  booted?: boolean;
  /** Called by a language pack (lang-<language>.<hash>.js) with its texts. */
  pack?(language: string, texts: Record<string, string>): void;
}

export interface PublicApi {
  open(view?: string): void;
  getConsent(): Consent;
  _: LoaderState;
}

export const consentOf = (c: Choices): Consent => ({
  necessary: true,
  functional: !!c.functional,
  analytics: !!c.analytics,
  marketing: !!c.marketing,
});

/** Under OPT_OUT and NOTICE_ONLY with no choice: everything runs, but marketing (sale, sharing) stops under GPC. */
export const openConsent = (gpc: boolean): Consent => consentOf({ functional: true, analytics: true, marketing: !gpc });

/** What the bundle leaves for the next page's loader (key `cm`): the regime and the Consent Mode switches. */
export interface ModeHint {
  r?: string;
  d?: boolean;
  u?: boolean;
}

// The widget's one catalogue of texts: every string of the notice, the settings view, the privacy
// center, the DSAR form, the accessibility tools, the embeds' placeholders and the categories'
// titles and sentences, in every language. Servers read it here; the widget's bundle reads English
// (widget.ts) and fetches a pack per other language.
import type { FindingCategory } from '../../domains/scan.schema';
import { ar } from './ar';
import { cs } from './cs';
import { da } from './da';
import { de } from './de';
import { el } from './el';
import { en, type TextKey, type Texts } from './en';
import { es } from './es';
import { fi } from './fi';
import { fr } from './fr';
import { he } from './he';
import { it } from './it';
import type { Language } from './languages';
import { nl } from './nl';
import { pl } from './pl';
import { pt } from './pt';
import { ro } from './ro';
import { sv } from './sv';

export type { TextKey, Texts } from './en';
export * from './languages';

export const WIDGET_TEXTS: Record<Language, Texts> = {
  en, de, fr, es, it, nl, pt, pl, sv, da, fi, cs, ro, el, ar, he,
}; // prettier-ignore

/** Every key, in the catalogue's order. */
export const TEXT_KEYS = Object.keys(en) as TextKey[];

/** The keys of the categories' titles and sentences, per category. */
export const CATEGORY_TEXT_KEYS: Record<FindingCategory, { label: TextKey; description: TextKey }> = {
  necessary: { label: 'catNecessary', description: 'catNecessaryText' },
  functional: { label: 'catFunctional', description: 'catFunctionalText' },
  analytics: { label: 'catAnalytics', description: 'catAnalyticsText' },
  marketing: { label: 'catMarketing', description: 'catMarketingText' },
  unclassified: { label: 'catUnclassified', description: 'catUnclassifiedText' },
};

/**
 * Keys a property may override. The categories' titles and sentences are not among them: they are
 * what a consent record states (consent-svc writes them from this catalogue in the visitor's language),
 * so the words a visitor reads and the signed record never differ.
 */
export const OVERRIDABLE_TEXT_KEYS = TEXT_KEYS.filter((k) => !k.startsWith('cat'));

/** The longest override a property may set (a text is a label or a paragraph, never a page). */
export const TEXT_OVERRIDE_MAX_LENGTH = 600;

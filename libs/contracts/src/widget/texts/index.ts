// The widget's one catalogue of texts: every string of the notice, the settings view, the privacy
// center, the DSAR form, the accessibility tools, the embeds' placeholders and the categories'
// titles and sentences. Here English (the reference) and the catalogue's rules; every language at
// once is all.ts (@platform/contracts/widget-texts-all), kept out of the contracts' index so a browser
// bundle of the contracts (the portal's first load) carries no language it does not show. The
// widget's bundle reads English (widget.ts) and fetches a pack per other language.
import type { FindingCategory } from '../../domains/scan.schema';
import { en, type TextKey } from './en';

export type { TextKey, Texts } from './en';
export * from './languages';

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

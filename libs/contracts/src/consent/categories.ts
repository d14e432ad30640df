import type { FindingCategory } from '../domains/scan.schema';
import { CATEGORY_TEXT_KEYS, type Texts } from '../widget/texts';
import { en } from '../widget/texts/en';

/** The categories a visitor chooses; `necessary` is always granted and never asked. */
export const OPTIONAL_CATEGORIES = ['functional', 'analytics', 'marketing'] as const;
export type OptionalCategory = (typeof OPTIONAL_CATEGORIES)[number];
/** Every category a property offers, in the order the widget shows them. */
export const CONSENT_CATEGORY_IDS = ['necessary', ...OPTIONAL_CATEGORIES] as const;

/** How a category's purpose is stated: its title, the sentence the visitor reads, and its legal facts. */
export interface CategoryText {
  /** The title the widget shows, and the purpose's `name` in the scan feed and the records. */
  label: string;
  /** The sentence the widget shows under the title, and the purpose's `legal_description`. */
  description: string;
  legal_base: 'LEGITIMATE_INTEREST' | 'CONSENT';
  is_profiling: boolean;
}

/** Each category's legal facts (its words are the catalogue's, libs/contracts/src/widget/texts). */
const CATEGORY_LEGAL: Record<FindingCategory, Pick<CategoryText, 'legal_base' | 'is_profiling'>> = {
  necessary: { legal_base: 'LEGITIMATE_INTEREST', is_profiling: false },
  functional: { legal_base: 'CONSENT', is_profiling: false },
  analytics: { legal_base: 'CONSENT', is_profiling: false },
  marketing: { legal_base: 'CONSENT', is_profiling: true },
  unclassified: { legal_base: 'CONSENT', is_profiling: false },
};

/**
 * The one wording of every category. The widget's settings (domains-svc), the scan feed's
 * data_collection and the consent records all read it, so a signed receipt states the very texts
 * the visitor was shown. A changed text changes `consent_revision`: visitors are asked again.
 */
export const CATEGORY_TEXTS: Record<FindingCategory, CategoryText> = categoryTextsOf(en);

/** The categories' texts in one language's entry of the catalogue (every language: widget/texts/all.ts). */
export function categoryTextsOf(texts: Texts): Record<FindingCategory, CategoryText> {
  const of = (category: FindingCategory): CategoryText => ({
    label: texts[CATEGORY_TEXT_KEYS[category].label],
    description: texts[CATEGORY_TEXT_KEYS[category].description],
    ...CATEGORY_LEGAL[category],
  });
  return {
    necessary: of('necessary'),
    functional: of('functional'),
    analytics: of('analytics'),
    marketing: of('marketing'),
    unclassified: of('unclassified'),
  };
}

/**
 * A category's purpose in the spec's data_collection shape, with `status` (ACTIVE, GRANTED, DENIED),
 * in the words of `texts` (English by default; another language's from categoryTexts in widget/texts/all.ts).
 */
export function categoryPurpose(
  category: FindingCategory,
  status: string,
  texts: Record<FindingCategory, CategoryText> = CATEGORY_TEXTS,
) {
  const text = texts[category];
  return {
    category,
    is_primary: category === 'necessary',
    is_profiling: text.is_profiling,
    legal_base: text.legal_base,
    legal_description: text.description,
    name: text.label,
    status,
    termination: 'Until the visitor changes the choice',
  };
}

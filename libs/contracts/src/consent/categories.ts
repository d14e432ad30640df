import type { FindingCategory } from '../domains/scan.schema';

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

/**
 * The one wording of every category. The widget's settings (domains-svc), the scan feed's
 * data_collection and the consent records all read it, so a signed receipt states the very texts
 * the visitor was shown. A changed text changes `consent_revision`: visitors are asked again.
 */
export const CATEGORY_TEXTS: Record<FindingCategory, CategoryText> = {
  necessary: {
    label: 'Necessary',
    description: 'Needed for the site to work (security, your privacy choices). Always on.',
    legal_base: 'LEGITIMATE_INTEREST',
    is_profiling: false,
  },
  functional: {
    label: 'Functional',
    description: 'Remembers settings such as language and improves features.',
    legal_base: 'CONSENT',
    is_profiling: false,
  },
  analytics: {
    label: 'Analytics',
    description: 'Measures how the site is used so it can be improved.',
    legal_base: 'CONSENT',
    is_profiling: false,
  },
  marketing: {
    label: 'Marketing',
    description: 'Personalised advertising, and sale or sharing of personal data with partners.',
    legal_base: 'CONSENT',
    is_profiling: true,
  },
  unclassified: {
    label: 'Not classified',
    description: 'Found on the site; no source names its purpose yet.',
    legal_base: 'CONSENT',
    is_profiling: false,
  },
};

/** A category's purpose in the spec's data_collection shape, with `status` (ACTIVE, GRANTED, DENIED). */
export function categoryPurpose(category: FindingCategory, status: string) {
  const text = CATEGORY_TEXTS[category];
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

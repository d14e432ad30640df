// Every language of the widget's catalogue at once, for servers (the settings in the visitor's
// language, records in the words the visitor read) and the owner console's texts editor. Imported as
// @platform/contracts/widget-texts-all, never through the contracts' index (see index.ts).
import { categoryTextsOf, type CategoryText } from '../../consent/categories';
import type { FindingCategory } from '../../domains/scan.schema';
import { ar } from './ar';
import { cs } from './cs';
import { da } from './da';
import { de } from './de';
import { el } from './el';
import { en, type Texts } from './en';
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

export const WIDGET_TEXTS: Record<Language, Texts> = {
  en, de, fr, es, it, nl, pt, pl, sv, da, fi, cs, ro, el, ar, he,
}; // prettier-ignore

/** The categories' texts in a language of the catalogue (English is CATEGORY_TEXTS). */
export function categoryTexts(language: Language): Record<FindingCategory, CategoryText> {
  return categoryTextsOf(WIDGET_TEXTS[language] || en);
}

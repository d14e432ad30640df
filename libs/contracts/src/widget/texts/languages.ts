// The widget's languages and how a visitor's is chosen. No zod, no other language's texts: the
// widget's bundle imports this file with en.ts (@platform/contracts/widget-texts).

/** Every language the widget speaks (English is built in; the others load as packs on demand). */
export const LANGUAGES = [
  'en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl', 'sv', 'da', 'fi', 'cs', 'ro', 'el', 'ar', 'he',
] as const; // prettier-ignore
export type Language = (typeof LANGUAGES)[number];

/** The languages written right to left: the widget renders them with dir="rtl". */
export const RTL_LANGUAGES: readonly Language[] = ['ar', 'he'];

export const isLanguage = (tag: unknown): tag is Language =>
  typeof tag === 'string' && (LANGUAGES as readonly string[]).includes(tag);

/** A BCP 47 tag's language we speak: `pt-BR` -> `pt`, `DE` -> `de`, `ja` -> undefined. */
export function baseLanguage(tag: string | null | undefined): Language | undefined {
  const base = String(tag || '')
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return isLanguage(base) ? base : undefined;
}

/** The first of `tags` (most preferred first) that we speak, else `fallback`. */
export function pickLanguage(tags: ReadonlyArray<string | null | undefined>, fallback: Language): Language {
  for (const tag of tags) {
    const lang = baseLanguage(tag);
    if (lang) return lang;
  }
  return fallback;
}

export const directionOf = (lang: Language): 'rtl' | 'ltr' => (RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr');

/** Fills `{name}` placeholders; an unknown one stays as written. */
export const fill = (text: string, vars: Record<string, string>): string =>
  text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? vars[name] : all));

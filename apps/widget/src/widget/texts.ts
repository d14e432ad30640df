// The texts the widget renders: English (built in), replaced by the visitor's language pack once
// loaded, then by the property's overrides for that language. t('key', {vars}) fills placeholders.
// Packs are separate content-hashed files (build.mjs puts their names into __LANG_PACKS__), loaded
// with a <script> (no CORS needed); a pack that fails to load leaves English and the page carries on.
import {
  baseLanguage,
  directionOf,
  en,
  fill,
  type Language,
  type TextKey,
  type Texts,
} from '@platform/contracts/widget-texts';
import type { LoaderState } from '../shared/types';

declare const __LANG_PACKS__: Record<string, string>;

let current: Texts = en;
let language: Language = 'en';

export const t = (key: TextKey, vars?: Record<string, string>): string =>
  vars ? fill(current[key] || en[key], vars) : current[key] || en[key];

export const lang = (): Language => language;
export const dir = (): 'rtl' | 'ltr' => directionOf(language);

/** The visitor's language: the first the widget speaks of the browser's (most preferred first), then the page's <html lang>. */
export function visitorLanguage(): Language | undefined {
  const tags = [...Array.from(navigator.languages || [navigator.language]), document.documentElement.lang];
  for (const tag of tags) {
    const found = baseLanguage(tag);
    if (found) return found;
  }
  return undefined;
}

/** Loads `to`'s pack (unless English), then applies the overrides; resolves once the texts are ready. */
export function useLanguage(pw: LoaderState, to: Language, overrides: Record<string, string>): Promise<void> {
  const apply = (texts: Partial<Texts>, as: Language) => {
    language = as;
    // Overrides were written for `to`: on English after a failed pack they would mix languages.
    current = { ...en, ...texts, ...((as === to ? overrides : {}) as Partial<Texts>) };
  };
  const file = __LANG_PACKS__[to];
  if (to === 'en' || !file) return Promise.resolve(apply({}, file ? to : 'en'));
  return new Promise<void>((resolve) => {
    pw.pack = (packLang, texts) => {
      if (packLang === to) apply(texts as Partial<Texts>, to);
      resolve();
    };
    const script = document.createElement('script');
    script.async = true;
    script.src = pw.base + '/widget/v1/assets/' + file;
    script.onerror = () => resolve(apply({}, 'en'));
    (document.head || document.documentElement).appendChild(script);
  });
}

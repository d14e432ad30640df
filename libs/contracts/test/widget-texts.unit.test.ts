// The widget's catalogue: every language has exactly English's keys, a non-blank text each, the same
// {placeholders} in each text, and the categories' texts read from it in any language.
import {
  CATEGORY_TEXTS,
  LANGUAGES,
  OVERRIDABLE_TEXT_KEYS,
  TEXT_KEYS,
  baseLanguage,
  categoryPurpose,
  directionOf,
  fill,
  pickLanguage,
} from '../src';
import { WIDGET_TEXTS, categoryTexts } from '../src/widget/texts/all';

const placeholders = (text: string) => (text.match(/\{\w+\}/g) || []).sort();

describe('the widget texts catalogue', () => {
  it("holds the issue's 16 languages, two of them right to left", () => {
    expect([...LANGUAGES].sort()).toEqual([
      'ar',
      'cs',
      'da',
      'de',
      'el',
      'en',
      'es',
      'fi',
      'fr',
      'he',
      'it',
      'nl',
      'pl',
      'pt',
      'ro',
      'sv',
    ]);
    expect(LANGUAGES.filter((l) => directionOf(l) === 'rtl')).toEqual(['ar', 'he']);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key, no extra, none blank', (lang) => {
    const texts = WIDGET_TEXTS[lang] as Record<string, string>;
    expect(Object.keys(texts).sort()).toEqual([...TEXT_KEYS].sort());
    for (const key of TEXT_KEYS) expect(texts[key].trim()).not.toBe('');
  });

  it.each(LANGUAGES)('%s keeps every placeholder of the English text', (lang) => {
    const lost = TEXT_KEYS.filter(
      (key) => placeholders(WIDGET_TEXTS[lang][key]).join() !== placeholders(WIDGET_TEXTS.en[key]).join(),
    );
    expect(lost).toEqual([]);
    expect(fill(WIDGET_TEXTS[lang].embedHeld, { vendor: 'YouTube', category: 'X' })).toContain('YouTube');
  });

  it('has the opt-out and notice-only texts the regimes need, and no HTML anywhere', () => {
    for (const key of ['optOutLink', 'optOutTitle', 'optOutBody', 'optOutButton', 'noticeOnlyBody', 'ok'])
      expect(TEXT_KEYS).toContain(key);
    for (const lang of LANGUAGES) for (const key of TEXT_KEYS) expect(WIDGET_TEXTS[lang][key]).not.toMatch(/[<>]/);
  });

  it("reads CATEGORY_TEXTS from English and a record's purposes in the visitor's language", () => {
    expect(CATEGORY_TEXTS.marketing.label).toBe(WIDGET_TEXTS.en.catMarketing);
    expect(categoryTexts('de').necessary).toEqual({
      label: 'Notwendig',
      description: WIDGET_TEXTS.de.catNecessaryText,
      legal_base: 'LEGITIMATE_INTEREST',
      is_profiling: false,
    });
    expect(categoryPurpose('marketing', 'GRANTED', categoryTexts('fr'))).toMatchObject({
      name: 'Marketing',
      legal_description: WIDGET_TEXTS.fr.catMarketingText,
      is_profiling: true,
    });
    expect(categoryPurpose('analytics', 'DENIED').name).toBe('Analytics');
    expect(OVERRIDABLE_TEXT_KEYS.some((k) => k.startsWith('cat'))).toBe(false);
  });

  it('picks the first language it speaks, a region falling back to its base', () => {
    expect(pickLanguage(['pt-BR', 'en'], 'en')).toBe('pt');
    expect(pickLanguage(['ja-JP', 'ko', null, 'DE-at'], 'en')).toBe('de');
    expect(pickLanguage(['ja'], 'fr')).toBe('fr');
    expect(baseLanguage('zh_Hant_TW')).toBeUndefined();
    expect(baseLanguage('he-IL')).toBe('he');
  });
});

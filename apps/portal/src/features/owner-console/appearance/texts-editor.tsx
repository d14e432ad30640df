// The widget's texts, per language: the owner picks a language and rewrites any text (blank keeps the
// catalogue's default, shown under the field). Every language's edits are kept while switching and
// saved together as text_overrides through the property PUT, checked first with the contract's schema.
// The categories' titles and sentences are not offered: consent records state them.
import {
  LANGUAGES,
  OVERRIDABLE_TEXT_KEYS,
  TEXT_OVERRIDE_MAX_LENGTH,
  updateInstancePropertyBodySchema,
  directionOf,
  type Language,
  type TextOverrides,
} from '@platform/contracts';
import { WIDGET_TEXTS } from '@platform/contracts/widget-texts-all';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { Button } from '../../../ui/button';
import { apiPathErrors, focusFirstError, validatePaths, type FieldErrors } from '../../../forms';
import { FormMessage, SelectField, StatusMessage, TextField } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import { useOwnerAccess, type ConsoleDomain } from '../access';
import { ownerErrorMessage, ownerKeys, ownerRoute } from '../api';
import type { InstanceProperty } from './draft';

const updateRoute = ownerRoute('updateOwnerProperty');

/** Each language by its own name, as its readers know it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano', nl: 'Nederlands',
  pt: 'Português', pl: 'Polski', sv: 'Svenska', da: 'Dansk', fi: 'Suomi', cs: 'Čeština',
  ro: 'Română', el: 'Ελληνικά', ar: 'العربية', he: 'עברית',
}; // prettier-ignore

/** "noticeTitle" -> "Notice title": a field's label from its key. */
const labelOf = (key: string) => {
  const words = key.replace(/([A-Z0-9])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Where a text shows, so ninety fields read as a few groups (closed until opened or holding an error). */
const GROUPS: Array<{ title: string; match: RegExp }> = [
  { title: 'Consent notice', match: /^(notice|rejectAll|acceptAll|settings|back$|save$|categoriesLabel|ok$)/ },
  { title: 'Do Not Sell or Share', match: /^(optOut|tabOptOut)/ },
  { title: 'Request form', match: /^dsar/ },
  { title: 'Policies', match: /^docs/ },
  { title: 'Company and DPO', match: /^(company|tradeName|address|email|phone|website|personName|dpoNone)/ },
  { title: 'Held embeds', match: /^(embed|loadOnce|alwaysAllow)/ },
  { title: 'Privacy center', match: /./ },
];
const groupOf = (key: string) => GROUPS.find((g) => g.match.test(key))!.title;

/** Blank texts left out, empty languages dropped: what the PUT sends. */
function cleaned(all: TextOverrides): TextOverrides {
  const kept: TextOverrides = {};
  for (const lang of LANGUAGES) {
    const set = Object.entries(all[lang] ?? {}).filter(([, text]) => text && text.trim());
    if (set.length) kept[lang] = Object.fromEntries(set);
  }
  return kept;
}

export function TextsEditor({ saved, domain }: { saved: InstanceProperty; domain: ConsoleDomain }) {
  const writable = useOwnerAccess().may(updateRoute);
  const client = useQueryClient();
  const initial = (saved.text_overrides ?? {}) as TextOverrides;
  const [lang, setLang] = useState<Language>((saved.default_language as Language) ?? 'en');
  const [draft, setDraft] = useState<TextOverrides>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  // The groups the owner opened (kept across languages); a group holding an error opens by itself.
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  const toggled = (title: string, open: boolean) => setOpened((o) => (o[title] === open ? o : { ...o, [title]: open }));
  const save = useMutation({
    mutationFn: async (text_overrides: TextOverrides) =>
      (await call(updateRoute, { params: { domainId: domain.id }, body: { text_overrides } })).result,
    onSuccess: (property) => client.setQueryData(ownerKeys.of(domain.id, 'property'), property),
  });
  const dirty = JSON.stringify(cleaned(draft)) !== JSON.stringify(cleaned(initial));
  const edit = (key: string, text: string) => {
    setDraft((d) => ({ ...d, [lang]: { ...d[lang], [key]: text } }));
    setStatus('');
    setErrors({});
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const checked = validatePaths(updateInstancePropertyBodySchema, { text_overrides: cleaned(draft) });
    if (!checked.ok) return (setErrors(checked.errors), focusFirstError(form));
    save.mutate(checked.data.text_overrides ?? {}, {
      onSuccess: (property) => {
        setDraft((property.text_overrides ?? {}) as TextOverrides);
        setStatus('Saved. Visitors see the new texts on their next page view.');
      },
      onError: (error) => (setErrors(apiPathErrors(error, ownerErrorMessage)), focusFirstError(form)),
    });
  };
  const defaults = WIDGET_TEXTS[lang];
  return (
    <form className="texts-form" onSubmit={submit} noValidate aria-label="Texts">
      <Section title="Texts">
        <p>
          The widget speaks the visitor&rsquo;s language. Change any of its texts per language; leave a field blank to
          keep the default shown under it.
        </p>
        <SelectField
          label="Language"
          value={lang}
          onChange={(e) => setLang(e.target.value as Language)}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <fieldset disabled={!writable} className="plain">
          {GROUPS.map(({ title }) => {
            const keys = OVERRIDABLE_TEXT_KEYS.filter((key) => groupOf(key) === title);
            const changed = keys.filter((key) => draft[lang]?.[key]?.trim()).length;
            const invalid = keys.some((key) => errors[`text_overrides.${lang}.${key}`]);
            return (
              <details
                key={title}
                className="text-group"
                open={opened[title] || invalid}
                onToggle={(e) => toggled(title, e.currentTarget.open)}
              >
                <summary>
                  {title} <small>({changed ? `${changed} of ${keys.length} changed` : `${keys.length} texts`})</small>
                </summary>
                {keys.map((key) => (
                  <TextField
                    key={lang + key}
                    // The text in its language's direction; the console's own words stay as they are.
                    lang={lang}
                    dir={directionOf(lang)}
                    label={labelOf(key)}
                    value={draft[lang]?.[key] ?? ''}
                    placeholder={defaults[key]}
                    maxLength={TEXT_OVERRIDE_MAX_LENGTH}
                    hint={
                      <>
                        Default:{' '}
                        <span lang={lang} dir={directionOf(lang)}>
                          {defaults[key]}
                        </span>
                      </>
                    }
                    error={errors[`text_overrides.${lang}.${key}`]}
                    onChange={(e) => edit(key, e.target.value)}
                  />
                ))}
              </details>
            );
          })}
        </fieldset>
      </Section>
      {(errors.form || errors.text_overrides || errors[`text_overrides.${lang}`]) && (
        <FormMessage tone="error">
          {errors.form || errors.text_overrides || errors[`text_overrides.${lang}`]}
        </FormMessage>
      )}
      <StatusMessage>{status}</StatusMessage>
      {writable && (
        <Button type="submit" variant="primary" disabled={!dirty} busy={save.isPending} busyLabel="Saving…">
          Save texts
        </Button>
      )}
    </form>
  );
}

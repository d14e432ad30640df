// The appearance form's state: the property's look and feature flags as the owner edits them, what changed
// (the PUT's partial body) and the font presets.
import type { z } from 'zod';
import type { instancePropertySchema } from '@platform/contracts';

export type InstanceProperty = z.output<typeof instancePropertySchema>;

/** The flags the form offers, grouped as the widget uses them. */
export const FEATURE_GROUPS = [
  {
    legend: 'Consent notice',
    flags: [
      {
        key: 'has_scripts',
        label: 'Ask visitors for consent',
        hint: 'Scripts and cookies wait until the visitor chooses. Off: no notice, everything runs.',
      },
      { key: 'has_welcome_message', label: 'Welcome message', hint: 'A short greeting with the notice.' },
    ],
  },
  {
    legend: 'Privacy center',
    flags: [
      { key: 'has_dsar', label: 'Privacy requests', hint: 'Visitors ask for a copy of their data, or to delete it.' },
      { key: 'has_docs', label: 'Policies', hint: 'Your privacy and cookie policies.' },
      {
        key: 'has_accessibility',
        label: 'Accessibility tools',
        hint: 'Text size, higher contrast, a readable font, no animations.',
      },
      {
        key: 'has_accessibility_icon',
        label: 'Accessibility icon',
        hint: 'A button on every page that opens the accessibility tools.',
      },
      { key: 'display_company', label: 'Company details', hint: 'Who is responsible for the site (see Company).' },
      { key: 'display_dpo', label: 'Data protection officer', hint: 'How to reach your data protection officer.' },
    ],
  },
  {
    legend: 'Scanning',
    flags: [
      {
        key: 'has_continuous_scanning',
        label: 'Rescan every week',
        hint: 'Keeps the cookie list and the declaration up to date.',
      },
    ],
  },
] as const;

export type Flag = (typeof FEATURE_GROUPS)[number]['flags'][number]['key'];
const FLAGS = FEATURE_GROUPS.flatMap((g) => g.flags.map((f) => f.key)) as Flag[];
const LOOK = ['primary_color', 'text_color', 'widget_font', 'widget_position', 'border_radius'] as const;
/** Which notice visitors get, how long a choice stands and Google Consent Mode's switches (regime-fields.tsx). */
const REGIME = ['regime', 'consent_max_age_days', 'ads_data_redaction', 'url_passthrough'] as const;

export type AppearanceDraft = Pick<InstanceProperty, (typeof LOOK)[number] | Flag | (typeof REGIME)[number]>;

export const draftOf = (p: InstanceProperty): AppearanceDraft =>
  Object.fromEntries([...LOOK, ...FLAGS, ...REGIME].map((k) => [k, p[k]])) as AppearanceDraft;

/** The fields that differ from the saved property: the PUT's partial body. */
export function changesOf(draft: AppearanceDraft, saved: InstanceProperty): Partial<AppearanceDraft> {
  return Object.fromEntries(
    (Object.keys(draft) as (keyof AppearanceDraft)[]).filter((k) => draft[k] !== saved[k]).map((k) => [k, draft[k]]),
  );
}

/** Font choices; the widget puts the system fonts after any of them (and the owner may type their site's own). */
export const FONT_PRESETS = [
  { value: 'system-ui', label: 'System font (default)' },
  { value: 'Arial, Helvetica, sans-serif', label: 'Arial / Helvetica' },
  { value: 'Verdana, Geneva, sans-serif', label: 'Verdana' },
  { value: '"Trebuchet MS", sans-serif', label: 'Trebuchet MS' },
  { value: 'Georgia, serif', label: 'Georgia (serif)' },
  { value: '"Times New Roman", Times, serif', label: 'Times New Roman (serif)' },
] as const;
export const CUSTOM_FONT = 'custom';

/** The preset a font value is (none set is the system font), or CUSTOM_FONT. */
export const presetOf = (font: string): string =>
  font === '' ? 'system-ui' : (FONT_PRESETS.find((p) => p.value === font)?.value ?? CUSTOM_FONT);

/** "8px" -> 8, "1.5rem" -> 24: the radius slider works in pixels. */
export function radiusPx(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(px|rem|em)?$/.exec(value.trim());
  if (!m) return 8;
  return Math.round(Number(m[1]) * (m[2] && m[2] !== 'px' ? 16 : 1));
}

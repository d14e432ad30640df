// Which notice the site's visitors get (the property's regime: by their location, or one for
// everyone), how long a visitor's choice stands, and Google Consent Mode's two switches the widget
// sets. See docs/widget.md.
import { Checkbox, SelectField } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import type { AppearanceDraft } from './draft';

const REGIME_OPTIONS: { value: AppearanceDraft['regime']; label: string }[] = [
  { value: 'AUTO', label: "By the visitor's location (recommended)" },
  { value: 'OPT_IN', label: 'Ask first, everywhere (opt-in)' },
  { value: 'OPT_OUT', label: 'Run everything, offer "Do Not Sell or Share" (opt-out)' },
  { value: 'NOTICE_ONLY', label: 'Inform only, everywhere' },
];

/** Common re-consent periods (13 months is the longest the French CNIL accepts); the API takes any 1..730 days. */
const MAX_AGES: Record<number, string> = {
  30: '1 month',
  90: '3 months',
  180: '6 months',
  365: '12 months (default)',
  395: '13 months',
  730: '24 months',
};

/** The periods offered, with the saved one when the API set another (e.g. 200 days). */
function maxAgeOptions(current: number) {
  const days = Object.keys(MAX_AGES).map(Number);
  if (!days.includes(current)) days.push(current);
  return days.sort((a, b) => a - b).map((d) => ({ value: String(d), label: MAX_AGES[d] ?? `${d} days` }));
}

export function RegimeFields({ draft, edit }: { draft: AppearanceDraft; edit: (c: Partial<AppearanceDraft>) => void }) {
  return (
    <Section title="Visitors' privacy laws">
      <SelectField
        label="Which notice visitors get"
        hint="By location: opt-in in Europe, the UK and Switzerland (and where the location is unknown), an opt-out in the US states with a privacy law, a notice elsewhere."
        value={draft.regime}
        options={REGIME_OPTIONS}
        onChange={(e) => edit({ regime: e.target.value as AppearanceDraft['regime'] })}
      />
      <SelectField
        label="Ask again after"
        hint="A visitor's choice stands this long; then the notice asks again (and whenever what it asks consent for changes)."
        value={String(draft.consent_max_age_days)}
        options={maxAgeOptions(draft.consent_max_age_days)}
        onChange={(e) => edit({ consent_max_age_days: Number(e.target.value) })}
      />
      <fieldset>
        <legend>Google Consent Mode</legend>
        <Checkbox
          checked={draft.ads_data_redaction}
          onChange={(e) => edit({ ads_data_redaction: e.target.checked })}
          label={
            <>
              Redact ad data while ads are refused
              <small className="checkbox-hint">Google ad clicks carry no identifiers until marketing is allowed.</small>
            </>
          }
        />
        <Checkbox
          checked={draft.url_passthrough}
          onChange={(e) => edit({ url_passthrough: e.target.checked })}
          label={
            <>
              Pass ad click information in links
              <small className="checkbox-hint">Keeps conversions measurable without cookies.</small>
            </>
          }
        />
      </fieldset>
    </Section>
  );
}

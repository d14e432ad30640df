// Which notice the site's visitors get (the property's regime: by their location, or one for
// everyone) and Google Consent Mode's two switches the widget sets. See docs/widget.md.
import { Checkbox, SelectField } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import type { AppearanceDraft } from './draft';

const REGIME_OPTIONS: { value: AppearanceDraft['regime']; label: string }[] = [
  { value: 'AUTO', label: "By the visitor's location (recommended)" },
  { value: 'OPT_IN', label: 'Ask first, everywhere (opt-in)' },
  { value: 'OPT_OUT', label: 'Run everything, offer "Do Not Sell or Share" (opt-out)' },
  { value: 'NOTICE_ONLY', label: 'Inform only, everywhere' },
];

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

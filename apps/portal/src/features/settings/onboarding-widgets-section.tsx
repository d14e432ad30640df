import type { OnboardingWidget, PartnerSettings } from '@platform/contracts';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import type { FieldErrors } from '../../forms';
import { CopyButton } from '../../ui/copy-button';
import { Checkbox, TextArea, TextField } from '../../ui/field';
import { Section } from '../../ui/misc';

const WIDGETS: { widget: OnboardingWidget; title: string; what: string }[] = [
  {
    widget: 'registration',
    title: 'Registration widget',
    what: 'Your customers register a website on your pages and confirm it by e-mail; the domain is created with your onboarding settings.',
  },
  {
    widget: 'scan',
    title: 'Scan widget',
    what: 'Visitors scan a website and get the report by e-mail; you see the site as a lead (status SCANNED).',
  },
];

/** The widgets' settings as the form holds them (origins one per line; an empty colour is the platform's). */
export function widgetsOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const one = (widget: OnboardingWidget) => ({
    enabled: data.get(`${widget}.enabled`) === 'on',
    allowed_origins: String(data.get(`${widget}.allowed_origins`) ?? '')
      .split(/[\s,]+/)
      .filter(Boolean),
    primary_color: String(data.get(`${widget}.primary_color`) ?? '').trim() || null,
  });
  return { registration: one('registration'), scan: one('scan') };
}

/** Issues under onboarding_widgets, by widget and field (onboarding_widgets.scan.allowed_origins). */
export function widgetErrorsOf(issues: readonly { path: string; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of issues) {
    const parts = path.replace(/^body\./, '').split('.');
    if (parts[0] === 'onboarding_widgets' && parts.length >= 3) errors[parts.slice(0, 3).join('.')] ??= message;
  }
  return errors;
}

/** The same from a zod error (the form's own check) or an API answer's VALIDATION.INVALID issues. */
export const widgetErrorsFrom = (error: z.ZodError | unknown): FieldErrors =>
  error instanceof ApiError
    ? widgetErrorsOf(Object.entries(error.fieldErrors).map(([path, message]) => ({ path, message })))
    : error && typeof error === 'object' && 'issues' in error
      ? widgetErrorsOf((error as z.ZodError).issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
      : {};

/** What a partner pastes into its own page to show the widget. */
const embedCode = (widget: OnboardingWidget, partnerId: string) =>
  `<div data-onboarding-${widget}></div>\n<script src="${window.location.origin}/widget/v1/onboarding/${widget}.js" data-partner="${partnerId}" async></script>`;

export function OnboardingWidgetsSection({ settings, errors }: { settings: PartnerSettings; errors: FieldErrors }) {
  return (
    <Section title="Onboarding widgets">
      <p className="muted">
        Scripts you embed on your own pages (your control panel, your checkout). They need no API key and answer only on
        the pages you allow here.
      </p>
      {WIDGETS.map(({ widget, title, what }) => {
        const current = settings.onboarding_widgets[widget];
        const error = (field: string) => errors[`onboarding_widgets.${widget}.${field}`];
        const code = embedCode(widget, settings.id);
        return (
          <fieldset key={widget}>
            <legend>{title}</legend>
            <p className="muted">{what}</p>
            <Checkbox
              name={`${widget}.enabled`}
              label={`Turn the ${widget} widget on`}
              defaultChecked={current.enabled}
            />
            <TextArea
              label="Pages allowed to embed it"
              name={`${widget}.allowed_origins`}
              rows={3}
              className="list"
              defaultValue={current.allowed_origins.join('\n')}
              hint="One origin per line: scheme, host and port, like https://panel.example.com"
              error={error('allowed_origins')}
            />
            <TextField
              label="Colour"
              name={`${widget}.primary_color`}
              defaultValue={current.primary_color ?? ''}
              hint="A hex colour like #1a56db; empty for the default"
              error={error('primary_color')}
            />
            <p>Embed code:</p>
            <pre aria-label={`${title} embed code`}>{code}</pre>
            <CopyButton text={code} label={`Copy the ${widget} embed code`} />
          </fieldset>
        );
      })}
    </Section>
  );
}

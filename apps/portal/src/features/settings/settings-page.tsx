import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REQUIRED_FIELDS, routeOf, settingsRoutes, updateSettingsBodySchema } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { call } from '../../api/client';
import type { PartnerSettings } from '../../api/types';
import { errorMessage } from '../../api/errors';
import { queryState } from '../../api/query-state';
import { can, SESSION_KEY, useSession } from '../../auth/session';
import { apiFieldErrors, checkedValues, validate, type FieldErrors } from '../../forms';
import { Button } from '../../ui/button';
import { DataState } from '../../ui/data-state';
import { Checkbox, FormMessage, StatusMessage, TextField } from '../../ui/field';
import { PageHeader, Section } from '../../ui/misc';
import { OnboardingWidgetsSection, widgetErrorsFrom, widgetsOf } from './onboarding-widgets-section';

const FIELD_LABELS: Record<(typeof REQUIRED_FIELDS)[number], string> = {
  account_first_name: "Owner's first name",
  account_last_name: "Owner's last name",
  phone_number: 'Phone number',
};

function bodyOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim() || null;
  return {
    name: text('name') ?? '',
    default_product: text('default_product'),
    default_price_list: text('default_price_list'),
    required_fields: checkedValues(form, 'required_fields'),
    totp_required: data.get('totp_required') === 'on',
    onboarding_widgets: widgetsOf(form),
  };
}

function SettingsForm({ settings }: { settings: PartnerSettings }) {
  const writable = can(useSession().data, 'settings:write');
  const client = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  // "Settings saved." stays until the next edit.
  const [status, setStatus] = useState('');
  const save = useMutation({
    mutationFn: async (body: z.output<typeof updateSettingsBodySchema>) =>
      (await call(routeOf(settingsRoutes, 'updateSettings'), { body })).result,
    onSuccess: (saved) => {
      client.setQueryData(['settings'], saved);
      setStatus('Settings saved.');
      void client.invalidateQueries({ queryKey: SESSION_KEY });
    },
    onError: (error) => setErrors({ ...apiFieldErrors(error, errorMessage), ...widgetErrorsFrom(error) }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = bodyOf(event.currentTarget);
    const checked = validate(updateSettingsBodySchema, body);
    if (!checked.ok) {
      const widgetErrors = widgetErrorsFrom(updateSettingsBodySchema.safeParse(body).error);
      return setErrors({ ...checked.errors, ...widgetErrors });
    }
    setErrors({});
    save.mutate(checked.data);
  };
  return (
    <form onSubmit={submit} onChange={() => setStatus('')} noValidate>
      <fieldset disabled={!writable} className="plain">
        <Section title="Partner">
          <TextField label="Partner name" name="name" defaultValue={settings.name} error={errors.name} required />
        </Section>
        <Section title="Defaults for new domains">
          <div className="form-grid">
            <TextField
              label="Default product"
              name="default_product"
              defaultValue={settings.default_product ?? ''}
              error={errors.default_product}
              hint="A product code, like BASIC"
            />
            <TextField
              label="Default price list"
              name="default_price_list"
              defaultValue={settings.default_price_list ?? ''}
              error={errors.default_price_list}
            />
          </div>
          <fieldset>
            <legend>Also required when a domain is created</legend>
            {REQUIRED_FIELDS.map((f) => (
              <Checkbox
                key={f}
                name="required_fields"
                value={f}
                label={FIELD_LABELS[f]}
                defaultChecked={settings.required_fields.includes(f)}
              />
            ))}
          </fieldset>
        </Section>
        <OnboardingWidgetsSection settings={settings} errors={errors} />
        <Section title="Security">
          <Checkbox
            name="totp_required"
            label="Require two-factor authentication for every user"
            defaultChecked={settings.totp_required}
          />
        </Section>
      </fieldset>
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      <StatusMessage>{status}</StatusMessage>
      {writable && (
        <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
          Save settings
        </Button>
      )}
    </form>
  );
}

export default function SettingsPage() {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: async () => (await call(routeOf(settingsRoutes, 'getSettings'))).result,
  });
  return (
    <>
      <PageHeader title="Settings" description="How your account works for everyone on your team." />
      <DataState {...queryState(settings)} loadingLabel="Loading settings…">
        {settings.data && <SettingsForm settings={settings.data} />}
      </DataState>
    </>
  );
}

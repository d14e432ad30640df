// The appearance form beside its live preview. Save sends only what changed (PUT takes a partial body),
// checked first with the contract's own schema; "Saved." stays until the next edit; unsaved edits are
// guarded. A VIEWER sees the same form read-only, with no Save.
import { updateInstancePropertyBodySchema, type UpdateInstancePropertyBody } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { apiFieldErrors, focusFirstError, validate, type FieldErrors } from '../../../forms';
import { Checkbox, FormMessage, StatusMessage } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import { useOwnerAccess, type ConsoleDomain } from '../access';
import { ownerErrorMessage, ownerKeys, ownerRoute } from '../api';
import { SaveBar } from '../save-bar';
import { UnsavedChangesGuard } from '../unsaved-changes';
import { changesOf, draftOf, FEATURE_GROUPS, type AppearanceDraft, type InstanceProperty } from './draft';
import { LookFields } from './look-fields';
import { RegimeFields } from './regime-fields';
import { WidgetPreview } from './widget-preview';

const updateRoute = ownerRoute('updateOwnerProperty');

function useSaveProperty(domainId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateInstancePropertyBody) =>
      (await call(updateRoute, { params: { domainId }, body })).result,
    onSuccess: (saved) => client.setQueryData(ownerKeys.of(domainId, 'property'), saved),
  });
}

function Features({ draft, edit }: { draft: AppearanceDraft; edit: (c: Partial<AppearanceDraft>) => void }) {
  return (
    <Section title="Features">
      {FEATURE_GROUPS.map((group) => (
        <fieldset key={group.legend}>
          <legend>{group.legend}</legend>
          {group.flags.map((flag) => (
            <Checkbox
              key={flag.key}
              checked={draft[flag.key]}
              onChange={(e) => edit({ [flag.key]: e.target.checked })}
              label={
                <>
                  {flag.label}
                  <small className="checkbox-hint">{flag.hint}</small>
                </>
              }
            />
          ))}
        </fieldset>
      ))}
    </Section>
  );
}

export function AppearanceEditor({ saved, domain }: { saved: InstanceProperty; domain: ConsoleDomain }) {
  const writable = useOwnerAccess().may(updateRoute);
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const save = useSaveProperty(domain.id);
  const changes = changesOf(draft, saved);
  const dirty = Object.keys(changes).length > 0;
  const edit = (change: Partial<AppearanceDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setStatus('');
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in change) && k !== 'form')));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const checked = validate(updateInstancePropertyBodySchema, changes);
    if (!checked.ok) return (setErrors(checked.errors), focusFirstError(form));
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (property) => {
        setDraft(draftOf(property));
        setStatus('Saved. Visitors see the new look on their next page view.');
      },
      onError: (error) => (setErrors(apiFieldErrors(error, ownerErrorMessage)), focusFirstError(form)),
    });
  };
  return (
    <div className="appearance">
      <form className="appearance-form" onSubmit={submit} noValidate aria-label="Appearance">
        {!writable && (
          <p className="read-only-note">You can look, not change: ask an admin or the owner of your account.</p>
        )}
        <fieldset disabled={!writable} className="plain">
          <Section title="Look">
            <LookFields draft={draft} edit={edit} errors={errors} savedFont={saved.widget_font} />
          </Section>
          <Features draft={draft} edit={edit} />
          <RegimeFields draft={draft} edit={edit} />
        </fieldset>
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <StatusMessage>{status}</StatusMessage>
        {writable && (
          <SaveBar dirty={dirty} pending={save.isPending} onDiscard={() => (setDraft(draftOf(saved)), setErrors({}))} />
        )}
      </form>
      <div className="appearance-preview">
        <WidgetPreview draft={draft} hostname={domain.hostname} />
      </div>
      <UnsavedChangesGuard dirty={dirty && writable} what="the appearance" />
    </div>
  );
}

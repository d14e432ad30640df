// Company: the company, account owner and DPO details the privacy center and the consent records
// show, shared by the company's websites. Save sends what changed; a VIEWER sees the form read-only.
import { updateInstanceCompanyBodySchema, type InstanceCompany } from '@platform/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { queryState } from '../../../api/query-state';
import { apiPathErrors, focusFirstError, validatePaths, type FieldErrors } from '../../../forms';
import { DataState } from '../../../ui/data-state';
import { FormMessage, StatusMessage, TextField } from '../../../ui/field';
import { PageHeader, Section } from '../../../ui/misc';
import { useOwnerAccess, useSectionDomain } from '../access';
import { ownerErrorMessage, ownerKeys, ownerRoute } from '../api';
import { SaveBar } from '../save-bar';
import { UnsavedChangesGuard } from '../unsaved-changes';
import { changesOf, countryName, draftOf, GROUPS, pathOf, type CompanyDraft } from './company-form';

const updateRoute = ownerRoute('updateOwnerCompany');

/** The form's draft, errors and status, and its save: the changed fields, checked with the contract's schema. */
function useCompanyForm(saved: InstanceCompany, domainId: string) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const save = useMutation({
    mutationFn: async (body: ReturnType<typeof changesOf>) =>
      (await call(updateRoute, { params: { domainId }, body })).result,
  });
  const changes = changesOf(draft, saved);
  const dirty = Object.keys(changes).length > 0;
  const edit = (key: keyof CompanyDraft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setStatus('');
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== pathOf(key) && k !== 'form')));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const checked = validatePaths(updateInstanceCompanyBodySchema, changes);
    if (!checked.ok) return (setErrors(checked.errors), focusFirstError(form));
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (company) => {
        client.setQueryData(ownerKeys.of(domainId, 'company'), company);
        setDraft(draftOf(company));
        setStatus('Saved. Your privacy center shows the new details.');
      },
      onError: (error) => (setErrors(apiPathErrors(error, ownerErrorMessage)), focusFirstError(form)),
    });
  };
  const discard = () => (setDraft(draftOf(saved)), setErrors({}));
  return { draft, errors, status, save, dirty, edit, submit, discard };
}

function CompanyForm({ saved, domainId }: { saved: InstanceCompany; domainId: string }) {
  const writable = useOwnerAccess().may(updateRoute);
  const { draft, errors, status, save, dirty, edit, submit, discard } = useCompanyForm(saved, domainId);
  const hintOf = (key: keyof CompanyDraft, hint?: string) =>
    key === 'country' && countryName(draft.country) ? `${countryName(draft.country)}. ${hint}` : hint;
  return (
    <form onSubmit={submit} noValidate aria-label="Company details">
      {!writable && (
        <p className="read-only-note">You can look, not change: ask an admin or the owner of your account.</p>
      )}
      <fieldset disabled={!writable} className="plain">
        {GROUPS.map((group) => (
          <Section key={group.title} title={group.title}>
            <p className="muted section-intro">{group.description}</p>
            <div className="form-grid">
              {group.fields.map((f) => (
                <TextField
                  key={f.key}
                  label={f.label}
                  type={f.type ?? 'text'}
                  autoComplete={f.autoComplete}
                  value={draft[f.key]}
                  onChange={(e) => edit(f.key, e.target.value)}
                  error={errors[pathOf(f.key)]}
                  hint={hintOf(f.key, f.hint)}
                />
              ))}
            </div>
            {group.title === 'Account owner' && (
              <p className="muted">
                Signs in with <strong>{saved.owner.email || 'no e-mail on file'}</strong>.
              </p>
            )}
          </Section>
        ))}
      </fieldset>
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      <StatusMessage>{status}</StatusMessage>
      {writable && <SaveBar dirty={dirty} pending={save.isPending} onDiscard={discard} />}
      <UnsavedChangesGuard dirty={dirty && writable} what="the company details" />
    </form>
  );
}

export default function CompanyPage() {
  const domain = useSectionDomain();
  const company = useQuery({
    queryKey: ownerKeys.of(domain.id, 'company'),
    queryFn: async () => (await call(ownerRoute('getOwnerCompany'), { params: { domainId: domain.id } })).result,
  });
  return (
    <>
      <PageHeader
        title="Company"
        description="Your company’s details, shared by all of its websites. Changes show in the privacy center."
      />
      <DataState {...queryState(company)} loadingLabel="Loading the company details…">
        {company.data && <CompanyForm key={domain.id} saved={company.data} domainId={domain.id} />}
      </DataState>
    </>
  );
}

import { subdomainBodySchema } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../api/errors';
import { can, useSession } from '../../../auth/session';
import { apiFieldErrors, validate, type FieldErrors } from '../../../forms';
import { Button } from '../../../ui/button';
import { queryState } from '../../../api/query-state';
import { ListSection } from '../../../ui/list-section';
import { TextField } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import { domainActions, domainKeys, useSubdomains } from '../hooks';

export function SubdomainsCard({ domainId, hostname }: { domainId: string; hostname: string }) {
  const writable = can(useSession().data, 'domains:write');
  const subdomains = useSubdomains(domainId);
  const client = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const refresh = () => client.invalidateQueries({ queryKey: domainKeys.detail(domainId) });
  const add = useMutation({
    mutationFn: (subdomain: string) => domainActions.addSubdomain(domainId, subdomain),
    onSuccess: () => refresh(),
    onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
  });
  const remove = useMutation({
    mutationFn: (id: string) => domainActions.removeSubdomain(domainId, id),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validate(subdomainBodySchema, { subdomain: String(new FormData(form).get('subdomain') ?? '') });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    add.mutate(checked.data.subdomain, { onSuccess: () => form.reset() });
  };
  const rows = subdomains.data ?? [];
  return (
    <Section title="Subdomains">
      <ListSection
        {...queryState(subdomains)}
        loadingLabel="Loading subdomains…"
        empty={rows.length === 0}
        emptyTitle="No subdomains"
        emptyText={`The widget answers on ${hostname} only.`}
      >
        <ul>
          {rows.map((s) => (
            <li key={s.id}>
              {s.hostname}{' '}
              {writable && (
                <Button
                  variant="ghost"
                  className="btn-small"
                  onClick={() => remove.mutate(s.id)}
                  aria-label={`Remove ${s.hostname}`}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
      </ListSection>
      {writable && (
        <form onSubmit={submit} noValidate className="filters">
          <TextField
            label="Add a subdomain"
            name="subdomain"
            placeholder={`shop.${hostname}`}
            error={errors.subdomain ?? errors.form}
          />
          <Button type="submit" busy={add.isPending}>
            Add
          </Button>
        </form>
      )}
    </Section>
  );
}

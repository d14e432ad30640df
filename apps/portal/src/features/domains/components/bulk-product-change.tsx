import { bulkProductChangeBodySchema, routeOf, subscriptionChangeRoutes } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { validate } from '../../../forms';
import { Button } from '../../../ui/button';
import { FormMessage, SelectField } from '../../../ui/field';
import { domainKeys, useProducts } from '../hooks';

/** One product for every selected domain, in one bulk call; says how many changed and which failed. */
export function BulkProductChange({ domainIds, onDone }: { domainIds: string[]; onDone: () => void }) {
  const products = useProducts();
  const client = useQueryClient();
  const [error, setError] = useState<string>();
  const change = useMutation({
    mutationFn: async (product: string) => {
      const checked = validate(bulkProductChangeBodySchema, { domains: domainIds.map((id) => ({ id, product })) });
      if (!checked.ok) throw new Error(Object.values(checked.errors)[0]);
      return (await call(routeOf(subscriptionChangeRoutes, 'bulkChangeSubscriptionProduct'), { body: checked.data }))
        .result;
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: domainKeys.all });
      onDone();
    },
    onError: (e) => setError(e instanceof Error && !('status' in e) ? e.message : errorMessage(e)),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    change.mutate(String(new FormData(event.currentTarget).get('product') ?? ''));
  };
  const options = (products.data ?? []).map((p) => ({ value: p.code, label: p.name }));
  return (
    <div className="bulk-bar" role="region" aria-label="Change the selected domains">
      {domainIds.length > 0 && (
        <form className="filters" onSubmit={submit}>
          <SelectField label={`Product for ${domainIds.length} selected`} name="product" options={options} />
          <Button type="submit" variant="primary" busy={change.isPending}>
            Change product
          </Button>
        </form>
      )}
      {error && <FormMessage tone="error">{error}</FormMessage>}
      {change.data && (
        <FormMessage tone={change.data.failed.length ? 'error' : 'success'}>
          {change.data.changed.length} changed
          {change.data.failed.length > 0 &&
            `; ${change.data.failed.length} failed: ${change.data.failed.map((f) => `${f.domain_id} (${f.error.message})`).join(', ')}`}
        </FormMessage>
      )}
    </div>
  );
}

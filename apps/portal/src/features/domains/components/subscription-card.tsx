import { productChangeBodySchema, type DomainDetail } from '@platform/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../api/errors';
import { can, useSession } from '../../../auth/session';
import { apiFieldErrors, validate, type FieldErrors } from '../../../forms';
import { Button } from '../../../ui/button';
import { FormMessage, SelectField } from '../../../ui/field';
import { Badge, formatDate, Section } from '../../../ui/misc';
import { domainActions, domainKeys, useProducts } from '../hooks';

function ChangeProduct({ domain }: { domain: DomainDetail }) {
  const products = useProducts();
  const client = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useMutation({
    mutationFn: (product: string) => domainActions.changeProduct(domain.id, product),
    onSuccess: () => client.invalidateQueries({ queryKey: domainKeys.detail(domain.id) }),
    onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(productChangeBodySchema, { product: new FormData(event.currentTarget).get('product') });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    change.mutate(checked.data.product);
  };
  const options = (products.data ?? []).map((p) => ({ value: p.code, label: p.name }));
  if (options.length === 0) return null;
  return (
    <form className="filters" onSubmit={submit} noValidate>
      <SelectField
        label="Change product"
        name="product"
        options={options}
        defaultValue={domain.subscription?.price.product.name ? undefined : options[0].value}
        error={errors.product}
      />
      <Button type="submit" busy={change.isPending}>
        Change
      </Button>
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      {change.isSuccess && <FormMessage tone="success">The product change is under way.</FormMessage>}
    </form>
  );
}

export function SubscriptionCard({ domain }: { domain: DomainDetail }) {
  const session = useSession().data;
  const sub = domain.subscription;
  return (
    <Section title="Subscription">
      {sub ? (
        <dl className="facts">
          <dt>Product</dt>
          <dd>{sub.price.product.name}</dd>
          <dt>Status</dt>
          <dd>
            <Badge>{sub.status}</Badge>
          </dd>
          <dt>Price</dt>
          <dd>
            {sub.price.price_amount} {sub.price.currency.name} per {sub.price.frequency.toLowerCase()}
          </dd>
          <dt>Since</dt>
          <dd>{formatDate(sub.start_date, false)}</dd>
        </dl>
      ) : (
        <p className="muted">No subscription yet.</p>
      )}
      {can(session, 'subscriptions:write') && <ChangeProduct domain={domain} />}
    </Section>
  );
}

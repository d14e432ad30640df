import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createDomainBodySchema, type CreateDomainBody } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { apiFieldErrors, formValues, validate, type FieldErrors } from '../../../forms';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { Checkbox, FormMessage, SelectField, TextField } from '../../../ui/field';
import { PageHeader, Section } from '../../../ui/misc';
import { createDomainRoute, domainKeys, useProducts } from '../hooks';

const ACTIONS = [
  { value: 'CREATE_SILENT', label: 'Create only' },
  { value: 'SCAN', label: 'Create and scan the site (the owner gets the report)' },
  { value: 'SCAN_INVITE', label: 'Create, scan and invite the owner' },
];

/** The form's fields as the API's create body (checkboxes become booleans). */
function bodyOf(form: HTMLFormElement) {
  const values: Record<string, unknown> = formValues(form);
  values.send_intro = (form.elements.namedItem('send_intro') as HTMLInputElement).checked;
  return values;
}

function useCreateDomain(setErrors: (e: FieldErrors) => void) {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDomainBody) => call(createDomainRoute, { body }),
    onSuccess: ({ result }) => {
      void client.invalidateQueries({ queryKey: domainKeys.all });
      navigate(routes.domains.detail({ domainId: result.id }), { state: { created: true } });
    },
    onError: (error) =>
      setErrors(
        error instanceof ApiError && error.code === 'DOMAIN.ALREADY_EXISTS'
          ? { domain: error.message }
          : apiFieldErrors(error, errorMessage),
      ),
  });
}

export default function DomainCreatePage() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const products = useProducts();
  const create = useCreateDomain(setErrors);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(createDomainBodySchema, bodyOf(event.currentTarget));
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    create.mutate(checked.data);
  };
  const productOptions = [
    { value: '', label: 'Default product' },
    ...(products.data ?? []).map((p) => ({ value: p.code, label: `${p.name} (${p.code})` })),
  ];
  return (
    <>
      <PageHeader
        title="Create domain"
        description="The domain's owner gets an account; the widget snippet is ready at once."
      />
      <form onSubmit={submit} noValidate>
        <Section title="Site and owner">
          <div className="form-grid">
            <TextField
              label="Domain"
              name="domain"
              placeholder="shop.example.com"
              required
              error={errors.domain}
              autoFocus
            />
            <TextField label="Company name" name="company_name" required error={errors.company_name} />
            <TextField label="Owner's e-mail" name="account_email" type="email" required error={errors.account_email} />
            <TextField label="Owner's first name" name="account_first_name" error={errors.account_first_name} />
            <TextField label="Owner's last name" name="account_last_name" error={errors.account_last_name} />
            <TextField label="Phone number" name="phone_number" type="tel" error={errors.phone_number} />
            <TextField label="Trade name" name="company_trade_name" error={errors.company_trade_name} />
            <TextField
              label="Country"
              name="country"
              hint="Two letters, like DE"
              maxLength={2}
              error={errors.country}
            />
          </div>
        </Section>
        <Section title="Subscription and onboarding">
          <div className="form-grid">
            <SelectField label="Product" name="product" options={productOptions} error={errors.product} />
            <TextField
              label="Merchant id"
              name="merchant_id"
              hint="Links the domain to one of your merchants"
              error={errors.merchant_id}
            />
            <SelectField label="After creating" name="action" options={ACTIONS} error={errors.action} />
          </div>
          <Checkbox name="send_intro" label="Also send the intro e-mail" />
        </Section>
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating…">
            Create domain
          </Button>
        </div>
      </form>
    </>
  );
}

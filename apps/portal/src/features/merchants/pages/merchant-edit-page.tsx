import { createMerchantBodySchema, updateMerchantBodySchema, type Merchant } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { queryState } from '../../../api/query-state';
import { can, useSession } from '../../../auth/session';
import { apiFieldErrors, validate, type FieldErrors } from '../../../forms';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { DataState } from '../../../ui/data-state';
import { FormMessage, TextArea, TextField } from '../../../ui/field';
import { PageHeader, Section } from '../../../ui/misc';
import { useDeleteMerchant, useMerchant, useSaveMerchant } from '../hooks';

const TEXT_FIELDS = ['merchant_id', 'company_name', 'description', 'default_product', 'default_price_list'] as const;

/** The form as a body: on edit an emptied field is sent as null (the API clears it). */
function bodyOf(form: HTMLFormElement, editing: boolean) {
  const data = new FormData(form);
  const body: Record<string, string | null> = {};
  for (const name of TEXT_FIELDS) {
    const value = String(data.get(name) ?? '').trim();
    if (value) body[name] = value;
    else if (editing && name !== 'merchant_id') body[name] = null;
  }
  return body;
}

function MerchantForm({ merchant }: { merchant?: Merchant }) {
  const navigate = useNavigate();
  const writable = can(useSession().data, 'merchants:write');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirming, setConfirming] = useState(false);
  const save = useSaveMerchant(merchant?.id);
  const remove = useDeleteMerchant();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(
      merchant ? updateMerchantBodySchema : createMerchantBodySchema,
      bodyOf(event.currentTarget, !!merchant),
    );
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (saved) => navigate(routes.merchants.detail({ merchantId: saved.id }), { replace: true }),
      onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Section title="Merchant">
        <div className="form-grid">
          <TextField
            label="Merchant id"
            name="merchant_id"
            defaultValue={merchant?.merchant_id}
            required
            error={errors.merchant_id}
            hint="The id in your system"
          />
          <TextField
            label="Company name"
            name="company_name"
            defaultValue={merchant?.company_name ?? ''}
            error={errors.company_name}
          />
          <TextField
            label="Default product"
            name="default_product"
            defaultValue={merchant?.default_product ?? ''}
            error={errors.default_product}
          />
          <TextField
            label="Default price list"
            name="default_price_list"
            defaultValue={merchant?.default_price_list ?? ''}
            error={errors.default_price_list}
          />
        </div>
        <TextArea
          label="Description"
          name="description"
          defaultValue={merchant?.description ?? ''}
          error={errors.description}
          rows={3}
        />
      </Section>
      {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
      {save.isSuccess && <FormMessage tone="success">Saved.</FormMessage>}
      {writable && (
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={save.isPending} busyLabel="Saving…">
            {merchant ? 'Save changes' : 'Create merchant'}
          </Button>
          {merchant && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete merchant
            </Button>
          )}
        </div>
      )}
      {merchant && (
        <ConfirmDialog
          open={confirming}
          title={`Delete ${merchant.merchant_id}?`}
          confirmLabel="Delete merchant"
          busy={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : undefined}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(merchant.id, { onSuccess: () => navigate(routes.merchants.list(), { replace: true }) })
          }
        >
          The merchant is deleted; its domains stay.
        </ConfirmDialog>
      )}
    </form>
  );
}

/** Create a merchant (/merchants/new) or see and edit one (/merchants/:merchantId). */
export default function MerchantEditPage() {
  const { merchantId } = useParams();
  const merchant = useMerchant(merchantId);
  const back = (
    <p>
      <Link to={routes.merchants.list()}>← Merchants</Link>
    </p>
  );
  if (!merchantId) {
    return (
      <>
        {back}
        <PageHeader title="Create merchant" />
        <MerchantForm />
      </>
    );
  }
  return (
    <DataState {...queryState(merchant)}>
      {merchant.data && (
        <>
          {back}
          <PageHeader
            title={merchant.data.merchant_id}
            description={
              merchant.data.domain ? (
                <>
                  Registered{' '}
                  <Link to={routes.domains.detail({ domainId: merchant.data.domain.id })}>
                    {merchant.data.domain.hostname}
                  </Link>
                </>
              ) : (
                'No domain yet.'
              )
            }
          />
          <MerchantForm key={merchant.data.updated_at} merchant={merchant.data} />
        </>
      )}
    </DataState>
  );
}

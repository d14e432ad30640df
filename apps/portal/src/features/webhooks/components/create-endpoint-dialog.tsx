import { createWebhookBodySchema } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { apiFieldErrors, checkedValues, formValues, validate, type FieldErrors } from '../../../forms';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { Checkbox, FormMessage, TextField } from '../../../ui/field';
import { useEventTypes, useWebhookMutation, webhookRoute } from '../hooks';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (secret: string) => void;
}

/** URL, description and the events to receive (none ticked: every event); answers with the signing secret. */
export function CreateEndpointDialog({ open, onClose, onCreated }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const eventTypes = useEventTypes();
  const create = useWebhookMutation(
    async (body: z.output<typeof createWebhookBodySchema>) =>
      (await call(webhookRoute('createWebhookEndpoint'), { body })).result,
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { url, description } = formValues(form);
    const events = checkedValues(form, 'events');
    const checked = validate(createWebhookBodySchema, {
      url: url ?? '',
      description,
      events: events.length ? events : null,
    });
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    create.mutate(checked.data, {
      onSuccess: (endpoint) => onCreated(endpoint.secret),
      onError: (error) => setErrors(apiFieldErrors(error, errorMessage)),
    });
  };
  return (
    <Dialog open={open} title="Add endpoint" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          required
          autoFocus
          placeholder="https://hooks.example.com/platform"
          error={errors.url}
        />
        <TextField label="Description (optional)" name="description" error={errors.description} />
        <fieldset>
          <legend>Events (none ticked: every event)</legend>
          {(eventTypes.data ?? []).map((t) => (
            <Checkbox key={t.name} name="events" value={t.name} label={t.name} />
          ))}
          {errors.events && <p className="field-error">{errors.events}</p>}
        </fieldset>
        {errors.form && <FormMessage tone="error">{errors.form}</FormMessage>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Adding…">
            Add endpoint
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

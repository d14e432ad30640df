import type { WebhookEndpoint } from '@platform/contracts';
import { useState, type FormEvent } from 'react';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { Button } from '../../../ui/button';
import { FormMessage, SelectField, TextField } from '../../../ui/field';
import { Section } from '../../../ui/misc';
import { SecretDialog } from '../../../ui/secret-dialog';
import { useEventTypes, useWebhookMutation, webhookRoute } from '../hooks';

/** Test send, rotate the secret, disable or enable, and recover failed deliveries from a moment. */
export function EndpointActions({ endpoint }: { endpoint: WebhookEndpoint }) {
  const endpointId = endpoint.id;
  const eventTypes = useEventTypes();
  const [secret, setSecret] = useState<string | null>(null);
  const test = useWebhookMutation((event: string) =>
    call(webhookRoute('sendWebhookTest'), { params: { endpointId }, body: { event } }),
  );
  const rotate = useWebhookMutation(
    async () => (await call(webhookRoute('rotateWebhookSecret'), { params: { endpointId }, body: {} })).result,
  );
  const toggle = useWebhookMutation((enabled: boolean) =>
    call(webhookRoute('updateWebhookEndpoint'), { params: { endpointId }, body: { enabled } }),
  );
  const recover = useWebhookMutation(
    async (since: string) =>
      (await call(webhookRoute('recoverWebhookDeliveries'), { params: { endpointId }, body: { since } })).result,
  );
  const failed = [test, rotate, toggle, recover].find((m) => m.isError);
  const sendTest = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    test.mutate(String(new FormData(event.currentTarget).get('event')));
  };
  const runRecover = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const since = String(new FormData(event.currentTarget).get('since') ?? '');
    if (since) recover.mutate(new Date(since).toISOString());
  };
  const events = (eventTypes.data ?? []).map((t) => t.name);
  return (
    <Section title="Actions">
      <form className="filters" onSubmit={sendTest}>
        <SelectField label="Test event" name="event" options={events.length ? events : ['domain.created']} />
        <Button type="submit" busy={test.isPending}>
          Send test
        </Button>
      </form>
      <form className="filters" onSubmit={runRecover}>
        <TextField label="Resend failed deliveries since" name="since" type="datetime-local" required />
        <Button type="submit" busy={recover.isPending}>
          Recover
        </Button>
      </form>
      <div className="row-actions">
        <Button
          busy={rotate.isPending}
          onClick={() => rotate.mutate(undefined, { onSuccess: (e) => setSecret(e.secret) })}
        >
          Rotate secret
        </Button>
        <Button
          variant={endpoint.enabled ? 'danger' : 'primary'}
          busy={toggle.isPending}
          onClick={() => toggle.mutate(!endpoint.enabled)}
        >
          {endpoint.enabled ? 'Disable endpoint' : 'Enable endpoint'}
        </Button>
      </div>
      {test.isSuccess && (
        <FormMessage tone="success">The test event is queued; it appears in the deliveries below.</FormMessage>
      )}
      {recover.isSuccess && (
        <FormMessage tone="success">{recover.data.recovered} deliveries will be sent again.</FormMessage>
      )}
      {failed && <FormMessage tone="error">{errorMessage(failed.error)}</FormMessage>}
      <SecretDialog title="The endpoint's new signing secret" secret={secret} onClose={() => setSecret(null)} />
    </Section>
  );
}

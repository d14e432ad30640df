import { DELIVERY_STATUSES, type WebhookDelivery } from '@platform/contracts';
import { useState } from 'react';
import { call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import { Button } from '../../../ui/button';
import { queryState } from '../../../api/query-state';
import { ListSection } from '../../../ui/list-section';
import { SelectField } from '../../../ui/field';
import { Badge, formatDate, Pagination, Section } from '../../../ui/misc';
import { useDeliveries, useWebhookMutation, webhookRoute } from '../hooks';

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) return <p className="muted">No attempt yet.</p>;
  return (
    <ol>
      {delivery.attempts.map((a) => (
        <li key={a.attempted_at}>
          {formatDate(a.attempted_at)} · {a.status_code ?? a.error ?? 'no answer'} · {a.duration_ms} ms
          {a.error_message && <div className="muted">{a.error_message}</div>}
          {a.response_body && (
            <pre aria-label="Response body">
              {a.response_body}
              {a.response_truncated ? '\n…' : ''}
            </pre>
          )}
        </li>
      ))}
    </ol>
  );
}

function DeliveryItem({ delivery, endpointId }: { delivery: WebhookDelivery; endpointId: string }) {
  const retry = useWebhookMutation(() =>
    call(webhookRoute('retryWebhookDelivery'), { params: { endpointId, deliveryId: delivery.id } }),
  );
  return (
    <li className="delivery">
      <details>
        <summary>
          <Badge>{delivery.status}</Badge> <code>{delivery.event}</code> · {formatDate(delivery.created_at)} ·{' '}
          {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
        </summary>
        <Attempts delivery={delivery} />
        <pre aria-label="Payload">{JSON.stringify(delivery.payload, null, 2)}</pre>
        {delivery.status === 'failed' && (
          <Button className="btn-small" busy={retry.isPending} onClick={() => retry.mutate(undefined)}>
            Retry now
          </Button>
        )}
        {retry.isError && <p role="alert">{errorMessage(retry.error)}</p>}
      </details>
    </li>
  );
}

/** The delivery log, newest first, with each delivery's attempts and response bodies. */
export function Deliveries({ endpointId }: { endpointId: string }) {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const deliveries = useDeliveries(endpointId, { status: status || undefined, page, limit: 20 });
  const rows = deliveries.data?.result ?? [];
  return (
    <Section title="Deliveries">
      <div className="filters">
        <SelectField
          label="Status"
          options={[{ value: '', label: 'Any status' }, ...DELIVERY_STATUSES]}
          value={status}
          onChange={(e) => (setStatus(e.target.value), setPage(1))}
        />
      </div>
      <ListSection
        {...queryState(deliveries)}
        loadingLabel="Loading deliveries…"
        empty={rows.length === 0}
        emptyTitle="No deliveries"
        emptyText="Send a test event to see one here."
        after={
          <Pagination
            page={page}
            hasPrev={!!deliveries.data?.meta.prev_page}
            hasNext={!!deliveries.data?.meta.next_page}
            onPage={setPage}
          />
        }
      >
        <ul className="deliveries">
          {rows.map((d) => (
            <DeliveryItem key={d.id} delivery={d} endpointId={endpointId} />
          ))}
        </ul>
      </ListSection>
    </Section>
  );
}

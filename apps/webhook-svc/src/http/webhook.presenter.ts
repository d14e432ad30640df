import type { WebhookDelivery, WebhookEndpoint } from '@platform/contracts';
import type { AttemptRow, DeliveryRow } from '../db/deliveries.repository';
import type { EndpointRow } from '../db/endpoints.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  const grace =
    row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > new Date()
      ? row.previous_secret_expires_at
      : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabled_reason,
    previous_secret_expires_at: iso(grace),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event: row.event,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    payload: JSON.parse(row.body) as Record<string, unknown>,
    attempts: attempts.map((a) => ({
      attempted_at: a.attempted_at.toISOString(),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error as WebhookDelivery['attempts'][number]['error'],
      error_message: a.error_message,
      response_body: a.response_body,
      response_truncated: a.response_truncated,
    })),
  };
}

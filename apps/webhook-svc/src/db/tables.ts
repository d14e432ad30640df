import type { ColumnType, Generated } from 'kysely';

export const SCHEMA = 'webhooks';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface EndpointsTable {
  id: string;
  partner_id: string;
  url: string;
  description: string;
  /** null: every public event. */
  events: string[] | null;
  enabled: Generated<boolean>;
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  /** AES-256-GCM ciphertexts (see secrets.ts), never the secret itself. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  /** The first failure since the last success; 5 days of it disables the endpoint. */
  failing_since: NullableTimestamp;
  last_success_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One event as a partner receives it: the exact bytes every delivery of it sends and signs. */
interface MessagesTable {
  id: string;
  partner_id: string;
  event: string;
  body: string;
  /** The event's trace context (W3C traceparent); null when tracing was off. */
  traceparent: string | null;
  created_at: Timestamp;
}

export interface DeliveriesTable {
  /** Also the webhook-id header. */
  id: string;
  message_id: string;
  endpoint_id: string;
  partner_id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  /** Attempts made so far; the next automatic one waits RETRY_SCHEDULE[attempt_count]. */
  attempt_count: Generated<number>;
  /** Set by a manual retry or recovery: the next attempt is the last one. */
  final_attempt: Generated<boolean>;
  next_attempt_at: NullableTimestamp;
  /** A worker holds the delivery until then; afterwards any worker may claim it. */
  lease_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  endpoint_id: string;
  attempted_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  error_message: string | null;
  response_body: string | null;
  response_truncated: boolean;
}

export interface WebhooksDb {
  endpoints: EndpointsTable;
  messages: MessagesTable;
  deliveries: DeliveriesTable;
  attempts: AttemptsTable;
}

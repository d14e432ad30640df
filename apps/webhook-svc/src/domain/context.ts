import type { Kysely } from '@platform/db';
import type { TargetPolicy } from '@platform/outbound';
import type { WebhooksDb } from '../db/tables';
import type { SecretBox } from './secrets';

/** What the endpoint and delivery use cases need. */
export interface WebhooksContext {
  db: Kysely<WebhooksDb>;
  secrets: SecretBox;
  /** Who may be registered as an endpoint (scheme, SSRF ranges, lookups). */
  targets: TargetPolicy;
  /** How long a rotated-out secret keeps signing unless the partner says otherwise. */
  rotationGraceMs: number;
}

/** NOTIFY channel that wakes delivery workers when the API queues a delivery (test send, retry, recovery). */
export const DUE_CHANNEL = 'webhooks_due';

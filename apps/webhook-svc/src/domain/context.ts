import type { Coordination } from '@platform/coordination';
import type { Kysely } from '@platform/db';
import type { OutboundClient, TargetPolicy } from '@platform/outbound';
import type { WebhooksDb } from '../db/tables';
import type { DeliveryWorker } from '../delivery/delivery-worker';
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

/** What webhook-svc's handlers, consumer, worker and jobs are built from. */
export interface WebhookServiceContext extends WebhooksContext {
  outbound: OutboundClient;
  /** Only in a process that delivers (WEBHOOK_ROLE worker or all). */
  worker?: DeliveryWorker;
  /** With REDIS_URL in a delivering process: the live workers its per-endpoint caps are split across. */
  coordination?: Coordination;
}

import type { Kysely } from '@platform/db';
import type { ConsumerSpec } from '@platform/service';
import type { MerchantsDb } from '../db/tables';

/** What merchants-svc's handlers and consumer are built from. */
export interface MerchantsContext {
  db: Kysely<MerchantsDb>;
  /** The domain-events consumer; events pushed by domains-svc run through its handlers too. */
  domainEvents: ConsumerSpec<MerchantsDb>;
}

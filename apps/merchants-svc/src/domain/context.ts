import type { Product } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { ConsumerSpec, EventPush } from '@platform/service';
import type { MerchantsDb } from '../db/tables';

/** billing-svc's product catalogue, which a merchant's default product and price list must name. */
export interface CataloguePort {
  products(): Promise<readonly Product[]>;
}

/** What merchants-svc needs from domains-svc: merchant changes handed over once they commit (read-your-writes); the bus brings them too. */
export interface DomainsPort {
  pushOnCommit: EventPush['onCommit'];
}

/** What merchants-svc's handlers and consumer are built from. */
export interface MerchantsContext {
  db: Kysely<MerchantsDb>;
  /** Read at each call (tests put a fixed catalogue here). */
  catalogue: CataloguePort;
  /** domains-svc, told of renames and deletes (the links it shows). */
  domains: DomainsPort;
  /** The domain-events consumer; events pushed by domains-svc run through its handlers too. */
  domainEvents: ConsumerSpec<MerchantsDb>;
}

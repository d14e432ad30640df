import type { EventMessage, Product } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { ConsumerSpec } from '@platform/service';
import type { MerchantsDb } from '../db/tables';

/** billing-svc's product catalogue, which a merchant's default product and price list must name. */
export interface CataloguePort {
  products(): Promise<readonly Product[]>;
}

/** What merchants-svc needs from domains-svc: committed merchant changes handed over at once (read-your-writes); the bus brings them too. */
export interface DomainsPort {
  push(messages: EventMessage[]): Promise<void>;
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

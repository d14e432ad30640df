import type { Kysely } from '@platform/db';
import type { BillingDb } from '../db/tables';
import type { CatalogueSource } from './catalogue.service';

/** What billing-svc's handlers and consumer are built from. */
export interface BillingContext {
  db: Kysely<BillingDb>;
  catalogue: CatalogueSource;
}

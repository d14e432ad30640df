import type { DomainsDatabase } from '../db/tables';
import type { CatalogueView } from './catalogue';

/** Installation facts that appear on every domain and event. */
export interface InstanceSettings {
  widgetBaseUrl: string;
  instance: { id: number; name: string; hostname: string; region: string };
  systemSegmentId: number;
  widgetVersion: number;
}

/** What the use cases need: the database (they open transactions on it) and the instance settings. */
export interface DomainsContext {
  db: DomainsDatabase;
  settings: InstanceSettings;
  /** billing-svc's product catalogue (codes are resolved against it). */
  catalogue: CatalogueView;
  /** Asks billing-svc to change subscriptions (the partner routes); rejects with 503 while it is unavailable. */
  billing: BillingPort;
}

/** What domains-svc needs from billing-svc. */
export interface BillingPort {
  changeProducts(caller: Caller, changes: SubscriptionProductChange[]): Promise<SubscriptionProductChangeResult[]>;
}

import type { SubscriptionProductChange, SubscriptionProductChangeResult } from '@platform/contracts';

/** The calling partner, from the gateway's internal token. */
export interface Caller {
  partnerId: string;
  requiredFields: string[];
}

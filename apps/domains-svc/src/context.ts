import type { PartnerDefaults } from '@platform/auth';
import type {
  DomainSource,
  Product,
  SubscriptionProductChange,
  SubscriptionProductChangeResult,
} from '@platform/contracts';
import type { EventPush } from '@platform/service';
import type { DomainsDatabase } from './db/tables';

/*
 * The context every feature of domains-svc runs with (the core in domains/, scanner/, reminders/,
 * widget/). Like status.ts it sits beside the feature folders and imports none of them.
 */

/** Installation facts that appear on every domain and event. */
export interface InstanceSettings {
  widgetBaseUrl: string;
  instance: { id: number; name: string; hostname: string; region: string };
  systemSegmentId: number;
  widgetVersion: number;
  /** The owner's activation link in e-mails (ACTIVATION_APPROVAL_URL, with {property_id}, {domain_id} and {domain_name}). */
  approvalUrlTemplate: string;
}

/** What the use cases need: the database (they open transactions on it), the instance settings and the other services. */
export interface DomainsContext {
  db: DomainsDatabase;
  settings: InstanceSettings;
  /** billing-svc's product catalogue (codes are resolved against it). */
  catalogue: CataloguePort;
  /** Asks billing-svc to change subscriptions (the partner routes); rejects with 503 while it is unavailable. */
  billing: BillingPort;
  /** merchants-svc: a merchant's default product, and the merchant links pushed once they commit. */
  merchants: MerchantsPort;
}

/** billing-svc's catalogue as domains-svc keeps it (CatalogueView: the copy last fetched, kept in the database). */
export interface CataloguePort {
  /** The catalogue; 503 only when it was never fetched and billing-svc cannot be reached now. */
  products(): Promise<readonly Product[]>;
  /** Fetches billing-svc's catalogue and keeps it. */
  refresh(): Promise<void>;
}

/** What domains-svc needs from merchants-svc; both are best effort (see merchants.client.ts). */
export interface MerchantsPort {
  defaultsOf(partnerId: string, merchantId: string): Promise<PartnerDefaults | undefined>;
  /** Hands a domain's events to merchants-svc once their transaction commits (read-your-writes); the bus brings them too. */
  pushOnCommit: EventPush['onCommit'];
}

/** What domains-svc needs from billing-svc. */
export interface BillingPort {
  changeProducts(caller: Caller, changes: SubscriptionProductChange[]): Promise<SubscriptionProductChangeResult[]>;
}

/** The calling partner, from the gateway's internal token. */
export interface Caller {
  partnerId: string;
  requiredFields: string[];
  /** How the caller came in: PORTAL for a signed-in portal user, API (the default) for an API key. */
  source?: DomainSource;
  /** The partner's default product and price list codes (gateway settings). */
  defaults?: PartnerDefaults;
}

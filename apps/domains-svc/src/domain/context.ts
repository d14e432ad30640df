import type { Transporter } from 'nodemailer';
import type { PartnerDefaults } from '@platform/auth';
import type { ConsumerSpec, EventPush } from '@platform/service';
import type { SubscriptionProductChange, SubscriptionProductChangeResult } from '@platform/contracts';
import type { DomainsDatabase, DomainsDb } from '../db/tables';
import type { CatalogueView } from './catalogue';
import type { ScanWorker } from './scan-worker';

/** Installation facts that appear on every domain and event. */
export interface InstanceSettings {
  widgetBaseUrl: string;
  instance: { id: number; name: string; hostname: string; region: string };
  systemSegmentId: number;
  widgetVersion: number;
}

/** What the use cases need: the database (they open transactions on it), the instance settings and the other services. */
export interface DomainsContext {
  db: DomainsDatabase;
  settings: InstanceSettings;
  /** billing-svc's product catalogue (codes are resolved against it). */
  catalogue: CatalogueView;
  /** Asks billing-svc to change subscriptions (the partner routes); rejects with 503 while it is unavailable. */
  billing: BillingPort;
  /** merchants-svc: a merchant's default product, and the merchant links pushed once they commit. */
  merchants: MerchantsPort;
}

/** What domains-svc's handlers, consumer and jobs are built from: the use cases' context and the mail transport (the mail jobs). */
export interface DomainsServiceContext extends DomainsContext {
  mailer: Transporter;
  /** The merchant-events consumer; events pushed by merchants-svc run through its handlers too. */
  merchantEvents: ConsumerSpec<DomainsDb>;
  /** The scanner role's worker (DOMAINS_ROLE scanner or all); undefined in the api role. */
  scanWorker: ScanWorker | undefined;
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
  /** The partner's default product and price list codes (gateway settings). */
  defaults?: PartnerDefaults;
}

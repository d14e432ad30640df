import type { Kysely } from '@platform/db';
import type { ConsumerSpec } from '@platform/service';
import type { DsarLimits } from '../data-requests/throttle';
import type { RecordWriter } from '../db/record-writer';
import type { ConsentDb } from '../db/tables';
import type { GeoIp } from '@platform/geo';
import type { LiveProperties } from './live-properties';
import type { RecordSigner } from './record-signer';

/** What consent-svc's handlers, consumer and jobs are built from. */
export interface ConsentContext {
  db: Kysely<ConsentDb>;
  geo: GeoIp;
  signer: RecordSigner;
  properties: LiveProperties;
  /** Receipts from the widget, stored by group commit. */
  records: RecordWriter;
  domainEvents: ConsumerSpec<ConsentDb>;
  /** Data subject request e-mails sent one by one per hour at most; the rest are held for the summary. */
  dsarMailLimits: { perPropertyPerHour: number; perOwnerPerHour: number };
  /** Requests taken per hour (past them: 429). */
  dsarLimits: DsarLimits;
  /** Where the gateway serves the widget's pages: the requester's confirmation link starts with it. */
  widgetBaseUrl: string;
}

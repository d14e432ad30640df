import type { ConsumerSpec } from '@platform/service';
import type { DomainsDb } from '../db/tables';
import { queueRequestedScan } from '../domain/scans.service';

/** The consumer's name: its queue is <exchange>.domains-svc.scans. */
export const SCAN_REQUESTS_CONSUMER = 'scans';

/** A create with action SCAN or SCAN_INVITE (scan.requested) queues a scan; the scanner role runs it. */
export function scanRequestsConsumer(): ConsumerSpec<DomainsDb> {
  return {
    name: SCAN_REQUESTS_CONSUMER,
    handlers: {
      'scan.requested': async (message, trx) => {
        await queueRequestedScan(trx, message.partner_id, message.payload.params);
      },
    },
  };
}

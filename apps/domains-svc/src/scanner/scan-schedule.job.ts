import type { JobDefinition } from '@platform/jobs';
import type { DomainsDb } from '../db/tables';
import { queueScheduledScans } from './scans.repository';

/**
 * Continuous scanning: properties with has_continuous_scanning get a SCHEDULE scan every
 * `intervalMs` (SCAN_RESCAN_INTERVAL_MS); one run at a time across the api instances.
 */
export const scanScheduleJob = (intervalMs: number): JobDefinition<DomainsDb> => ({
  name: 'scan-schedule',
  intervalMs: Math.min(60_000, intervalMs),
  jitterMs: 1_000,
  singleton: true,
  run: ({ db, now }) => queueScheduledScans(db, { now, intervalMs, limit: 500 }),
});

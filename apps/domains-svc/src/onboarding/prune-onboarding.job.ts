import type { JobDefinition } from '@platform/jobs';
import type { DomainsDb } from '../db/tables';
import { pruneWidgetScans } from '../scanner/widget-scans.repository';
import { pruneRegistrations } from './registrations.repository';

/**
 * The widgets' visitors' addresses are not kept longer than needed: registrations a week past
 * their link's expiry, widget scans after 30 days.
 */
export const pruneOnboardingJob = (): JobDefinition<DomainsDb> => ({
  name: 'prune-onboarding',
  intervalMs: 3_600_000,
  jitterMs: 300_000,
  singleton: true,
  run: async ({ db, now }) => {
    while ((await pruneRegistrations(db, now)) === 1_000);
    while ((await pruneWidgetScans(db, now)) === 1_000);
  },
});

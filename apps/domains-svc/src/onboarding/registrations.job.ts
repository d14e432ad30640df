import type { JobDefinition } from '@platform/jobs';
import type { DomainsDb } from '../db/tables';
import { pruneRegistrations } from './registrations.repository';

/** Registrations a week past their link's expiry are forgotten (their e-mail address with them). */
export const pruneRegistrationsJob = (): JobDefinition<DomainsDb> => ({
  name: 'prune-registrations',
  intervalMs: 3_600_000,
  jitterMs: 300_000,
  singleton: true,
  run: async ({ db, now }) => {
    while ((await pruneRegistrations(db, now)) === 1_000);
  },
});

import type { JobDefinition } from '@platform/jobs';
import { IdempotencyRepository } from '../db/idempotency.repository';
import type { GatewayDb } from '../db/tables';

/**
 * Drops Idempotency-Keys past their TTL. Any gateway may run it; as a singleton only one does at a
 * time, in bounded batches, and a stopping gateway ends it between two batches.
 */
export const pruneIdempotencyKeysJob: JobDefinition<GatewayDb> = {
  name: 'prune-idempotency-keys',
  intervalMs: 10 * 60_000,
  jitterMs: 60_000,
  singleton: true,
  deadlineMs: 5 * 60_000,
  run: async ({ db, signal }) => ({ pruned: await new IdempotencyRepository(db).pruneExpired(signal) }),
};

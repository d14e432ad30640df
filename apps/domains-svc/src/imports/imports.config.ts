import { z } from 'zod';

/** The import job's settings (domains-svc config). */
export const importsConfig = {
  /** How often the job looks for import rows to run (it runs them until none are left). */
  IMPORT_POLL_MS: z.coerce.number().int().min(10).default(500),
  /** Rows one claim takes. */
  IMPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(500).default(100),
  /**
   * Rows of a claim run at once, each in its own transaction: a row is a dozen short statements and
   * a commit, so one at a time leaves the database waiting on round trips (65 rows/s); a few at once
   * overlap them and share commits' flushes. Kept under the pool (10) so requests still get connections.
   */
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(4),
  /** How long a claim holds its rows: a worker that dies leaves them to another after this. */
  IMPORT_LEASE_MS: z.coerce.number().int().min(100).default(120_000),
};

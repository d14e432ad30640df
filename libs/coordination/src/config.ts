import { z } from 'zod';

/** The coordination's settings, as each service that shares limits reads them (spread into its config schema). */
export const coordinationEnv = {
  /** Redis for limits shared by every replica (redis://[:password@]host:6379/0); unset, each process limits alone, in memory. */
  REDIS_URL: z.url().optional(),
  /** Prefixes every Redis key, so platforms sharing one Redis do not meet. */
  REDIS_KEY_PREFIX: z.string().min(1).default('platform:'),
};

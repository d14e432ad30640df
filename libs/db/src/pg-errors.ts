import { AppError } from '@platform/http';
import type { ErrorCode } from '@platform/contracts';

export const PG_UNIQUE_VIOLATION = '23505';
const PG_SERIALIZATION_FAILURE = '40001';
const PG_DEADLOCK_DETECTED = '40P01';
export const PG_FOREIGN_KEY_VIOLATION = '23503';

export const pgErrorCode = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;

export const isUniqueViolation = (err: unknown, constraint?: string) =>
  pgErrorCode(err) === PG_UNIQUE_VIOLATION &&
  (constraint === undefined || (err as { constraint?: string }).constraint === constraint);

/** Maps a unique violation to the contract's 409 code at the repository edge; rethrows anything else. */
export function rethrowUnique(err: unknown, code: ErrorCode, message?: string, constraint?: string): never {
  if (isUniqueViolation(err, constraint)) throw new AppError(code, message);
  throw err;
}

/** PostgreSQL refused the data itself (SQLSTATE class 22 data exception, 23 integrity violation): the row's fault, not the database's. */
export const isDataError = (err: unknown) => /^2[23]/.test(pgErrorCode(err) ?? '');

/** Failures PostgreSQL asks the client to resolve by running the transaction again. */
export const isRetryable = (err: unknown) => {
  const code = pgErrorCode(err);
  return code === PG_SERIALIZATION_FAILURE || code === PG_DEADLOCK_DETECTED;
};

/** What pg-pool says when no connection came free (or none could be opened) within connectionTimeoutMillis. */
const POOL_TIMEOUTS = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];

/** A full pool is a busy service (503 SERVICE.UNAVAILABLE, the partner may retry), not a bug; other failures pass as they are. */
export function unavailableWhenBusy(err: unknown): never {
  if (err instanceof Error && POOL_TIMEOUTS.includes(err.message)) {
    throw Object.assign(new AppError('SERVICE.UNAVAILABLE', 'The service is busy; retry later.'), { cause: err });
  }
  throw err;
}

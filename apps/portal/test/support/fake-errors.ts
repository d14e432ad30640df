// The fake API's failures: the contract's error envelope fields, thrown by handlers and rendered once.
import { randomBytes } from 'node:crypto';
import type { ErrorCode } from '@platform/contracts';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | 'AUTH.SESSION_REQUIRED' | 'AUTH.CSRF',
    readonly status: number,
    message?: string,
    readonly data?: Record<string, unknown>,
    /** Sent with the envelope, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? code);
  }
}

export const newToken = () => randomBytes(18).toString('base64url');

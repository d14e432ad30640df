export * from './client';
export { PlatformApiError, NON_ENVELOPE_CODE } from './errors';
export { retryAfterMs, type RetryOptions } from './retry';

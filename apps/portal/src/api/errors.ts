// One table from the contract's error codes to what the portal says; anything else shows the API's own message.
import { NON_ENVELOPE_CODE } from '@platform/client';
import { ApiError } from './client';

const MESSAGES: Record<string, string> = {
  NETWORK: 'The portal cannot reach the server. Check your connection and try again.',
  'AUTH.SESSION_REQUIRED': 'Your session has ended. Sign in again.',
  'AUTH.CSRF': 'Your session could not be verified. Reload the page and try again.',
  'AUTH.FORBIDDEN': 'Your role does not allow this. Ask an administrator.',
  'RESOURCE.NOT_FOUND': 'Not found. It may have been deleted, or it belongs to another account.',
  'RATE.LIMITED': 'Too many requests. Wait a moment and try again.',
  'SERVICE.UNAVAILABLE': 'A service is unavailable right now. Try again in a moment.',
  'SERVER.INTERNAL': 'Something went wrong on our side. Try again in a moment.',
  // An answer without the error envelope (a proxy's error page): its text is not for the user.
  [NON_ENVELOPE_CODE]: 'Something went wrong on our side. Try again in a moment.',
  'VALIDATION.INVALID': 'Some fields need attention.',
};

/** What to tell the user about a failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return MESSAGES[error.code] ?? error.message;
  return 'Something went wrong. Try again in a moment.';
}

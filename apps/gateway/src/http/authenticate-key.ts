import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorObject } from '@platform/contracts';
import { AppError, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { AuthResult, KeyAuthenticator, KeyRecord } from '../domain/key-authenticator';

const BEARER = /^Bearer +(\S+) *$/i;

type Reason = Extract<AuthResult, { ok: false }>['reason'] | 'missing';

const MESSAGES: Record<Reason, string> = {
  missing: 'Send the API key as "Authorization: Bearer <API_KEY>".',
  malformed: 'The API key is invalid.',
  unknown: 'The API key is invalid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
  ip_not_allowed: 'The API key may not be used from this IP address.',
};

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="portal"' };

/**
 * The request's API key, checked (known, not revoked or expired, allowed from this IP), or
 * undefined once 401 with the Bearer challenge has been sent. A failed lookup is 503, not 401.
 */
export async function authenticateKey(
  keys: KeyAuthenticator,
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  ip: string,
  requestId: string,
): Promise<KeyRecord | undefined> {
  const match = BEARER.exec(req.headers.authorization ?? '');
  if (!match) return void sendError(res, errorObject('AUTH.API_KEY', MESSAGES.missing), CHALLENGE);
  let auth: AuthResult;
  try {
    auth = await keys.authenticate(match[1], ip);
  } catch (err) {
    logger.error({ err, requestId }, 'API key lookup failed');
    throw new AppError('SERVICE.UNAVAILABLE', 'Authentication is temporarily unavailable; retry later.');
  }
  if (!auth.ok) {
    logger.debug({ reason: auth.reason, ip, requestId }, 'API key rejected');
    return void sendError(res, errorObject('AUTH.API_KEY', MESSAGES[auth.reason]), CHALLENGE);
  }
  return auth.key;
}

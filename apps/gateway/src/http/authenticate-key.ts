import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorObject } from '@platform/contracts';
import { AppError, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
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
 * Answers a failed authentication: 401 with the Bearer challenge, or 429 with Retry-After once
 * the client address is past its failures' limit.
 */
function refuse(res: ServerResponse, failures: FailedAuthThrottle, ip: string, reason: Reason): undefined {
  const retryAfter = failures.failed(ip);
  if (retryAfter === undefined) return void sendError(res, errorObject('AUTH.API_KEY', MESSAGES[reason]), CHALLENGE);
  const message = `Too many failed authentications from this address; retry after ${retryAfter} s. A valid API key is not affected.`;
  sendError(res, errorObject('RATE.LIMITED', message), { 'Retry-After': retryAfter });
}

/**
 * The request's API key, checked (known, not revoked or expired, allowed from this IP), or
 * undefined once 401 with the Bearer challenge (429 for an address failing too often, see
 * FailedAuthThrottle) has been sent. A failed lookup is 503, not 401, and is not counted.
 */
export async function authenticateKey(
  keys: KeyAuthenticator,
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  ip: string,
  requestId: string,
  failures: FailedAuthThrottle,
): Promise<KeyRecord | undefined> {
  const match = BEARER.exec(req.headers.authorization ?? '');
  if (!match) return refuse(res, failures, ip, 'missing');
  let auth: AuthResult;
  try {
    auth = await keys.authenticate(match[1], ip);
  } catch (err) {
    logger.error({ err, requestId }, 'API key lookup failed');
    throw new AppError('SERVICE.UNAVAILABLE', 'Authentication is temporarily unavailable; retry later.');
  }
  if (!auth.ok) {
    logger.debug({ reason: auth.reason, ip, requestId }, 'API key rejected');
    return refuse(res, failures, ip, auth.reason);
  }
  return auth.key;
}

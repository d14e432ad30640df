import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorObject } from '@platform/contracts';
import { AppError, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { AuthResult, KeyAuthenticator, KeyRecord, RefusalReason } from '../domain/key-authenticator';

const BEARER = /^Bearer +(\S+) *$/i;

type Reason = RefusalReason | 'missing';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="portal"' };

/** What refusing needs besides the reason: the throttle, and the log line's context. */
interface Refusal {
  logger: Logger;
  failures: FailedAuthThrottle;
  ip: string;
  requestId: string;
}

/**
 * Answers a failed authentication: 401 with the Bearer challenge, one body whatever the reason (so
 * a client learns nothing about a key it does not hold), or 429 with Retry-After once the client
 * address is past its failures' limit. The reason is logged, never the key.
 */
async function refuse(
  res: ServerResponse,
  { logger, failures, ip, requestId }: Refusal,
  reason: Reason,
): Promise<undefined> {
  const retryAfter = await failures.failed(ip);
  logger.info({ reason, ip, requestId, answer: retryAfter === undefined ? 401 : 429 }, 'API key refused');
  if (retryAfter === undefined) return void sendError(res, errorObject('AUTH.API_KEY'), CHALLENGE);
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
  const refusal: Refusal = { logger, failures, ip, requestId };
  const match = BEARER.exec(req.headers.authorization ?? '');
  if (!match) return refuse(res, refusal, 'missing');
  let auth: AuthResult;
  try {
    auth = await keys.authenticate(match[1], ip);
  } catch (err) {
    logger.error({ err, requestId }, 'API key lookup failed');
    throw new AppError('SERVICE.UNAVAILABLE', 'Authentication is temporarily unavailable; retry later.');
  }
  if (!auth.ok) return refuse(res, refusal, auth.reason);
  return auth.key;
}

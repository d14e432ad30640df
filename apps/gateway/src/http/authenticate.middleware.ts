import type { RequestHandler, Response } from 'express';
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

function deny(res: Response, reason: Reason) {
  sendError(res, errorObject('AUTH.API_KEY', MESSAGES[reason]), { 'WWW-Authenticate': 'Bearer realm="portal"' });
}

/** The verified key of this request; set by authenticate(). */
export const apiKeyOf = (res: Response): KeyRecord => res.locals.apiKey as KeyRecord;

/** Bearer API key check: missing, unknown, revoked, expired or wrong client IP all answer 401 AUTH.API_KEY. */
export function authenticate(keys: KeyAuthenticator, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) return deny(res, 'missing');
    let result: AuthResult;
    try {
      // req.ip is the socket address, or the X-Forwarded-For client when the socket is a trusted proxy.
      result = await keys.authenticate(match[1], req.ip ?? '');
    } catch (err) {
      logger.error({ err }, 'API key lookup failed');
      throw new AppError('SERVICE.UNAVAILABLE', 'Authentication is temporarily unavailable; retry later.');
    }
    if (!result.ok) {
      logger.debug({ reason: result.reason, ip: req.ip }, 'API key rejected');
      return deny(res, result.reason);
    }
    res.locals.apiKey = result.key;
    next();
  };
}

import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import { errorObject } from '@platform/contracts';
import { sendError } from '@platform/http';
import { apiKeyOf } from './authenticate.middleware';

/**
 * Per-key limit over a one-minute window (memory store: each gateway instance counts its own
 * share). Answers carry the IETF draft RateLimit-Policy / RateLimit headers; a 429 adds Retry-After.
 */
export function rateLimitPerKey(limitPerMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: limitPerMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (_req, res) => apiKeyOf(res).id,
    handler: (_req, res) => sendError(res, errorObject('RATE.LIMITED')),
    // The checks guard against misconfigurations this setup cannot have, and run on every request.
    validate: false,
  });
}

import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { AppError, validationError } from '@platform/http';

/**
 * Idempotency-Key on POST, PUT, PATCH and DELETE, with Stripe's semantics: the same key and the
 * same request from the same partner within the TTL replays the first answer; the key with another
 * request is 409 IDEMPOTENCY.KEY_REUSED; while the first still runs, 409 IDEMPOTENCY.IN_PROGRESS.
 * Answers of 5xx are not kept, so a retry runs the request again. The gateway checks the key and
 * passes it on with the request's fingerprint; the service that owns the write keeps the answer
 * (keyed-handlers.ts).
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** The gateway's fingerprint of the partner's request (hex SHA-256, see requestFingerprint). */
export const FINGERPRINT_HEADER = 'x-idempotency-fingerprint';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's Idempotency-Key, undefined when it has none (or the method does not take one), or 400. */
export function idempotencyKeyOf(
  method: string,
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const value = headers[IDEMPOTENCY_HEADER];
  if (value === undefined || !IDEMPOTENT_METHODS.has(method)) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value)) {
    throw validationError([
      { path: 'headers.Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters, sent once' },
    ]);
  }
  return value;
}

/** JSON bodies compare by content (RFC 8785), so key order or spacing does not make another request. */
function canonicalBody(body: Buffer): string | Buffer {
  try {
    return canonicalize(JSON.parse(body.toString('utf8'))) ?? body;
  } catch {
    return body;
  }
}

/** What makes two requests "the same": method, path with query, and body. */
export function requestFingerprint(method: string, url: string, body: Buffer | undefined): Buffer {
  const hash = createHash('sha256').update(`${method} ${url}\n`);
  if (body) hash.update(canonicalBody(body));
  return hash.digest();
}

export const keyReused = () =>
  new AppError(
    'IDEMPOTENCY.KEY_REUSED',
    'This Idempotency-Key was already used with another request; use a new key for a new request.',
  );
export const keyInProgress = () =>
  new AppError(
    'IDEMPOTENCY.IN_PROGRESS',
    'The first request with this Idempotency-Key is still being processed; retry later with the same key.',
  );

/**
 * Whether an answer is the request's outcome to keep. 5xx are not (the request may run again), nor
 * is 429: it says "not now" (a rate limit, with its Retry-After), so the retry it asks for must run.
 */
export const isKeptAnswer = (status: number) => status < 500 && status !== 429;

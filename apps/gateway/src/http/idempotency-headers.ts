import type { IncomingMessage } from 'node:http';
import type { RouteSpec } from '@platform/contracts';
import { FINGERPRINT_HEADER, requestFingerprint } from '@platform/service';

/**
 * What the gateway adds to a keyed write for the service that owns it: the partner's key (the
 * internal token scopes it to the partner) and the fingerprint of the partner's bytes, so the
 * service can tell a retry from another request under the same key. The service keeps the key and
 * its answer in the transaction of the write itself (libs/service idempotency): the gateway keeps
 * nothing, so there is one record of a key's outcome and it cannot disagree with the effect.
 * An upload (a route that declares multipart) gets no fingerprint: a retry that builds its form
 * again has another boundary, so the same form is other bytes. The service fingerprints the
 * parsed form instead (its fields and the file's SHA-256, libs/service keyed-handlers).
 */
export function keyedHeaders(
  req: IncomingMessage,
  idempotencyKey: string,
  body: Buffer | undefined,
  spec: Pick<RouteSpec, 'multipart'>,
): Record<string, string> {
  if (spec.multipart) return { 'idempotency-key': idempotencyKey };
  return {
    'idempotency-key': idempotencyKey,
    [FINGERPRINT_HEADER]: requestFingerprint(req.method ?? 'GET', req.url ?? '/', body).toString('hex'),
  };
}

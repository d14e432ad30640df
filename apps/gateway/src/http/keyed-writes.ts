import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { takesIdempotencyKey, type RouteSpec } from '@platform/contracts';
import { idempotencyKeyOf, requestFingerprint, runKeyed, type KeyedSettings } from '@platform/service';
import type { SignedInUser } from '../identity/signed-in-user';

/** A gateway-owned write as the runner has it: the route, the raw body and the session's user. */
export interface GatewayWrite {
  req: IncomingMessage;
  spec: RouteSpec;
  body: Buffer | undefined;
  user: SignedInUser | undefined;
}

/**
 * "The same request" for a gateway-owned write: the fingerprint a forwarded write gets (method,
 * path with query, canonical body) and the user who sends it. Keys are per partner, as for every
 * write; with the user in the fingerprint another user of the partner who sends the same key gets
 * 409 IDEMPOTENCY.KEY_REUSED, never the first user's answer (which may hold a new key's secret).
 */
const fingerprintOf = ({ req, body }: GatewayWrite, user: SignedInUser) =>
  createHash('sha256')
    .update(requestFingerprint(req.method ?? 'GET', req.url ?? '/', body))
    .update(user.userId)
    .digest();

/**
 * The gateway's own writes (API keys, the team, settings, TOTP enrolment) take an Idempotency-Key
 * as a service's writes do, kept by the same code (libs/service runKeyed) in the gateway's
 * idempotency_keys: the key is claimed, the write and its answer commit in one transaction, a
 * retry replays the answer byte for byte (`Idempotent-Replayed: true`), another request under
 * the key is 409. Answers are sealed at rest under the Idempotency-Key itself (keys.repository.ts).
 */
export function keyedWrites(settings: KeyedSettings) {
  return {
    /** The write's Idempotency-Key (400 when malformed); undefined when it has none or the route takes none. */
    keyOf: (write: Pick<GatewayWrite, 'req' | 'spec'>): string | undefined =>
      takesIdempotencyKey(write.spec) ? idempotencyKeyOf(write.req.method ?? 'GET', write.req.headers) : undefined,

    /**
     * Runs the write, keyed when it has a key and a user (the partner the key is scoped to): a
     * request without a session is refused by its handler and keeps nothing.
     */
    run: (key: string | undefined, write: GatewayWrite, handler: () => Promise<unknown>): Promise<unknown> =>
      key === undefined || !write.user
        ? handler()
        : runKeyed(
            settings,
            { partnerId: write.user.partnerId, key, fingerprint: fingerprintOf(write, write.user) },
            handler,
          ),
  };
}

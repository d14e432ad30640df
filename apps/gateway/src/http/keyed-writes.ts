import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { takesIdempotencyKey, type RouteSpec } from '@platform/contracts';
import { idempotencyKeyOf, requestFingerprint, runKeyed, type KeyedSettings } from '@platform/service';

/** Who sends a gateway-owned write: the partner, and the session's user id (or `key:<id>` for an API key). */
export interface WriteSender {
  partnerId: string;
  id: string;
}

/** A gateway-owned write as the runner has it: the route, the raw body and who sends it. */
export interface GatewayWrite {
  req: IncomingMessage;
  spec: RouteSpec;
  body: Buffer | undefined;
  sender: WriteSender | undefined;
}

/**
 * "The same request" for a gateway-owned write: the fingerprint a forwarded write gets (method,
 * path with query, canonical body) and the user who sends it. Keys are per partner, as for every
 * write; with the user in the fingerprint another user of the partner who sends the same key gets
 * 409 IDEMPOTENCY.KEY_REUSED, never the first user's answer (which may hold a new key's secret).
 */
const fingerprintOf = ({ req, body }: GatewayWrite, sender: WriteSender) =>
  createHash('sha256')
    .update(requestFingerprint(req.method ?? 'GET', req.url ?? '/', body))
    .update(sender.id)
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
     * Runs the write, keyed when it has a key and a sender (the partner the key is scoped to): a
     * request without a session or API key is refused by its handler and keeps nothing.
     */
    run: (key: string | undefined, write: GatewayWrite, handler: () => Promise<unknown>): Promise<unknown> =>
      key === undefined || !write.sender
        ? handler()
        : runKeyed(
            settings,
            { partnerId: write.sender.partnerId, key, fingerprint: fingerprintOf(write, write.sender) },
            handler,
          ),
  };
}

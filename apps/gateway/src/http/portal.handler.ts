import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type CompiledRoute } from '@platform/contracts';
import { errorObjectOf, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { KeyAuthenticator } from '../domain/key-authenticator';
import { authenticateKey } from './authenticate-key';
import { forwardToService, type Upstreams } from './forward';
import { idempotencyKeyOf } from '@platform/service';
import { permittedRoute } from './portal-route';
import { TokenBucketLimiter } from '../domain/rate-limiter';
import { requestCost } from '../domain/request-cost';
import { FairShare, type FairShareSettings } from '../domain/fair-share';
import { bodyReader } from './request-body';

export interface PortalDeps {
  keys: KeyAuthenticator;
  routes: CompiledRoute[];
  upstreams: Upstreams;
  minter: InternalTokenMinter;
  logger: Logger;
  /** Cost units per key a minute, and how many may be spent at once (default: see defaultBurst). */
  rateLimit: { perMinute: number; burst?: number };
  /** Each partner's calls in flight per service, and the queue behind that cap. */
  fairShare: FairShareSettings;
  bodyLimitBytes: number;
  /** Counts a service's 500 answers (a bug to fix, not a reason to refuse other partners). */
  onServerError(service: string): void;
  /** The client address: the socket's, or the X-Forwarded-For client behind a trusted proxy. */
  clientIp(req: IncomingMessage): string;
  /** Failed authentications per client address: past the limit, 429 instead of 401. */
  authFailures: FailedAuthThrottle;
}

/** The partner's own queue for the service is full or its wait ran out: its own flood, so 429 (not 503: the service is fine). */
const sendBusy = (res: ServerResponse) =>
  sendError(
    res,
    errorObject('RATE.LIMITED', 'Too many of your calls are in flight to this service; retry after the given seconds.'),
    { 'Retry-After': '1' },
  );

export type PortalHandler = (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

/**
 * /portal/* on plain node:http (Express costs a measurable share of the hot path). Order matters:
 * key (known, IP, expiry) -> rate limit (by cost) -> route + permission -> body rules ->
 * Idempotency-Key -> a slot in the partner's fair share of the service -> forward -> the service's
 * answer. Each step that refuses has answered when it returns nothing.
 */
export function portalHandler(deps: PortalDeps): PortalHandler {
  const limiter = new TokenBucketLimiter(deps.rateLimit.perMinute, deps.rateLimit.burst);
  const shares = new FairShare(deps.fairShare);
  const readBody = bodyReader(deps.bodyLimitBytes);

  /** Sets the RateLimit fields; over the limit, answers 429 with Retry-After and says no. */
  const withinRateLimit = (keyId: string, req: IncomingMessage, res: ServerResponse) => {
    const rate = limiter.hit(keyId, requestCost(req.method ?? 'GET', req.url ?? '/'));
    res.setHeader('RateLimit', rate.rateLimit);
    res.setHeader('RateLimit-Policy', rate.policy);
    if (rate.retryAfter === undefined) return true;
    res.setHeader('Retry-After', rate.retryAfter);
    sendError(res, errorObject('RATE.LIMITED'));
    return false;
  };

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const ip = deps.clientIp(req);
    const key = await authenticateKey(deps.keys, deps.logger, req, res, ip, requestId, deps.authFailures);
    if (!key || !withinRateLimit(key.id, req, res)) return;
    const spec = permittedRoute(deps.routes, req, res, key);
    if (!spec) return;
    const body = await readBody(req, res);
    const idempotencyKey = idempotencyKeyOf(req.method ?? 'GET', req.headers);
    // Under the cap the slot is taken synchronously: the common path adds no await.
    const lane = `${key.partnerId} ${spec.service}`;
    if (!shares.tryAcquire(lane) && !(await shares.wait(lane))) return void sendBusy(res);
    try {
      // A partner that gave up while its call waited gets no call made for it.
      if (res.destroyed) return;
      await forwardToService(deps, req, res, { key, spec, body, idempotencyKey, ip, requestId });
    } finally {
      shares.release(lane);
    }
  }

  return (req, res, requestId) =>
    handle(req, res, requestId).catch((err: unknown) => {
      sendError(res, errorObjectOf(err, deps.logger.child({ requestId })));
    });
}

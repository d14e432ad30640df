import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type CompiledRoute } from '@platform/contracts';
import { errorObjectOf, sendError } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { IdempotencyRepository } from '../db/idempotency.repository';
import type { KeyAuthenticator } from '../domain/key-authenticator';
import { authenticateKey } from './authenticate-key';
import { forwardToService, type Upstreams } from './forward';
import { idempotencyKeyOf } from '../domain/idempotency';
import { permittedRoute } from './portal-route';
import { FixedWindowLimiter } from '../domain/rate-limiter';
import { bodyReader } from './request-body';

export interface PortalDeps {
  keys: KeyAuthenticator;
  routes: CompiledRoute[];
  upstreams: Upstreams;
  minter: InternalTokenMinter;
  logger: Logger;
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  idempotency: IdempotencyRepository;
  /** How long an Idempotency-Key and its answer are kept. */
  idempotencyTtlMs: number;
  /** How long a request with an Idempotency-Key may run upstream after the partner's deadline. */
  idempotentCompletionMs: number;
  /** Counts a service's 500 answers (a bug to fix, not a reason to refuse other partners). */
  onServerError(service: string): void;
  /** The client address: the socket's, or the X-Forwarded-For client behind a trusted proxy. */
  clientIp(req: IncomingMessage): string;
}

export type PortalHandler = (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;

/**
 * /portal/* on plain node:http (Express costs a measurable share of the hot path). Order matters:
 * key (known, IP, expiry) -> rate limit -> route + permission -> body rules -> Idempotency-Key ->
 * forward -> the service's answer. Each step that refuses has answered when it returns nothing.
 */
export function portalHandler(deps: PortalDeps): PortalHandler {
  const limiter = new FixedWindowLimiter(deps.rateLimitPerMinute);
  const readBody = bodyReader(deps.bodyLimitBytes);

  /** Sets the RateLimit fields; over the limit, answers 429 with Retry-After and says no. */
  const withinRateLimit = (keyId: string, res: ServerResponse) => {
    const rate = limiter.hit(keyId);
    res.setHeader('RateLimit', rate.rateLimit);
    res.setHeader('RateLimit-Policy', rate.policy);
    if (rate.retryAfter === undefined) return true;
    res.setHeader('Retry-After', rate.retryAfter);
    sendError(res, errorObject('RATE.LIMITED'));
    return false;
  };

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const ip = deps.clientIp(req);
    const key = await authenticateKey(deps.keys, deps.logger, req, res, ip, requestId);
    if (!key || !withinRateLimit(key.id, res)) return;
    const spec = permittedRoute(deps.routes, req, res, key);
    if (!spec) return;
    const body = await readBody(req, res);
    const idempotencyKey = idempotencyKeyOf(req.method ?? 'GET', req.headers);
    await forwardToService(deps, req, res, { key, spec, body, idempotencyKey, ip, requestId });
  }

  return (req, res, requestId) =>
    handle(req, res, requestId).catch((err: unknown) => {
      sendError(res, errorObjectOf(err, deps.logger.child({ requestId })));
    });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { Dispatcher } from 'undici';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, matchRoute, type CompiledRoute } from '@platform/contracts';
import { AppError, errorObjectOf, hasBody, isJsonContentType, sendError, type ServiceRequest, type ServiceResponse } from '@platform/http';
import type { Logger } from '@platform/observability';
import type { IdempotencyRepository } from '../db/idempotency.repository';
import type { AuthResult, KeyAuthenticator } from '../domain/key-authenticator';
import { relay, type Upstreams } from './forward';
import { idempotencyKeyOf, isKeptAnswer, keyInProgress, keyReused, REPLAYED_HEADER, requestFingerprint } from './idempotency';
import { FixedWindowLimiter } from './rate-limiter';

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

/** The operation a /portal request was routed to (for metrics and the access log). */
export const routedOperation = new WeakMap<ServerResponse, string>();

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

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * /portal/* on plain node:http (Express costs a measurable share of the hot path):
 * key -> rate limit -> route + permission -> body rules -> forward. Order matters.
 */
export function portalHandler(deps: PortalDeps): PortalHandler {
  const { keys, routes, upstreams, minter, logger } = deps;
  const limiter = new FixedWindowLimiter(deps.rateLimitPerMinute);
  // Raw bytes are forwarded untouched; body-parser rejects an oversized Content-Length up front
  // and counts streamed bytes (413). Body-less requests never reach it.
  const raw = express.raw({ type: () => true, limit: deps.bodyLimitBytes });
  const readBody = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<Buffer | undefined>((resolve, reject) => {
      raw(req as express.Request, res as express.Response, (err?: unknown) => {
        if (err) return reject(err);
        const body = (req as express.Request).body as unknown;
        resolve(Buffer.isBuffer(body) && body.length > 0 ? body : undefined);
      });
    });

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const match = BEARER.exec(req.headers.authorization ?? '');
    if (!match) return sendError(res, errorObject('AUTH.API_KEY', MESSAGES.missing), CHALLENGE);
    const ip = deps.clientIp(req);
    let auth: AuthResult;
    try {
      auth = await keys.authenticate(match[1], ip);
    } catch (err) {
      logger.error({ err, requestId }, 'API key lookup failed');
      throw new AppError('SERVICE.UNAVAILABLE', 'Authentication is temporarily unavailable; retry later.');
    }
    if (!auth.ok) {
      logger.debug({ reason: auth.reason, ip, requestId }, 'API key rejected');
      return sendError(res, errorObject('AUTH.API_KEY', MESSAGES[auth.reason]), CHALLENGE);
    }
    const key = auth.key;

    const rate = limiter.hit(key.id);
    res.setHeader('RateLimit', rate.rateLimit);
    res.setHeader('RateLimit-Policy', rate.policy);
    if (rate.retryAfter !== undefined) {
      res.setHeader('Retry-After', rate.retryAfter);
      return sendError(res, errorObject('RATE.LIMITED'));
    }

    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    // HEAD is answered as GET without a body (the service does the same).
    const found = matchRoute(routes, method === 'HEAD' ? 'GET' : method, pathOf(url));
    if (found.kind === 'not_found') return sendError(res, errorObject('ROUTE.NOT_FOUND'));
    if (found.kind === 'method_not_allowed') {
      const allowed = found.allowed.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]));
      return sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed }), { Allow: allowed.join(', ') });
    }
    routedOperation.set(res, found.route.spec.operationId);
    const required = found.route.spec.permission;
    if (!key.permissions.includes(required)) {
      return sendError(res, errorObject('AUTH.FORBIDDEN', `The API key lacks the permission ${required}.`, { required }));
    }

    let body: Buffer | undefined;
    if (hasBody(req.headers)) {
      if (!isJsonContentType(req.headers['content-type'])) return sendError(res, errorObject('REQUEST.UNSUPPORTED_MEDIA_TYPE'));
      body = await readBody(req, res);
    }
    const idempotencyKey = idempotencyKeyOf(method, req.headers);

    const service = found.route.spec.service;
    const token = minter.mint(
      { partnerId: key.partnerId, keyId: key.id, permissions: key.permissions, requiredFields: key.requiredFields, defaults: key.defaults },
      service,
    );
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-request-id': requestId, 'x-forwarded-for': ip };
    if (body) headers['content-type'] = req.headers['content-type'] ?? 'application/json';
    if (req.headers.accept) headers.accept = req.headers.accept;
    const upstreamRequest = { method: method as Dispatcher.HttpMethod, path: url, headers, body };
    try {
      const upstream =
        idempotencyKey === undefined
          ? await upstreams[service].request(upstreamRequest)
          : await forwardOnce(key.partnerId, idempotencyKey, upstreamRequest, service, res, requestId);
      if (!upstream) return;
      if (upstream.status === 500) {
        deps.onServerError(service);
        logger.error({ upstream: service, status: upstream.status, requestId }, 'service answered 500: a bug to fix');
      }
      relay(res, upstream);
    } catch (err) {
      if (err instanceof AppError) logger.warn({ upstream: service, code: err.code, requestId }, 'upstream call failed');
      throw err;
    }
  }

  /**
   * Forwards a request with an Idempotency-Key at most once: replays the kept answer, refuses a
   * reused or busy key, or claims the key and keeps the outcome, even one that arrives after the
   * partner's deadline (a retry then gets it instead of running the write twice). Undefined when
   * the answer was already sent from the store.
   */
  async function forwardOnce(
    partnerId: string,
    idempotencyKey: string,
    request: ServiceRequest,
    service: keyof Upstreams,
    res: ServerResponse,
    requestId: string,
  ) {
    const claim = await deps.idempotency.claim({
      partnerId,
      key: idempotencyKey,
      fingerprint: requestFingerprint(request.method, request.path, request.body as Buffer | undefined),
      lockMs: deps.idempotentCompletionMs + 10_000,
      ttlMs: deps.idempotencyTtlMs,
    });
    if (claim.kind === 'reused') throw keyReused();
    if (claim.kind === 'in_progress') throw keyInProgress();
    if (claim.kind === 'replay') {
      const { status, contentType, body } = claim.answer;
      res.statusCode = status;
      res.setHeader(REPLAYED_HEADER, 'true');
      if (contentType) res.setHeader('content-type', contentType);
      res.setHeader('content-length', body.length);
      res.end(body);
      return undefined;
    }
    const settle = async (answer: ServiceResponse | undefined) => {
      const contentType = answer?.headers['content-type'];
      if (answer && isKeptAnswer(answer.status)) {
        await deps.idempotency.complete(partnerId, idempotencyKey, claim.owner, {
          status: answer.status,
          contentType: typeof contentType === 'string' ? contentType : null,
          body: answer.body,
        });
      } else {
        await deps.idempotency.release(partnerId, idempotencyKey, claim.owner);
      }
    };
    const { answer, outcome } = upstreams[service].requestWithOutcome(request, deps.idempotentCompletionMs);
    try {
      const upstream = await answer;
      // Kept before the partner sees it, so an immediate retry replays instead of finding it in progress.
      await settle(upstream);
      return upstream;
    } catch (err) {
      // The partner's deadline passed (or the breaker refused): keep whatever the service answers later.
      void outcome.then(settle).catch((e: unknown) => logger.error({ err: e, requestId }, 'storing an idempotent outcome failed'));
      throw err;
    }
  }

  return (req, res, requestId) =>
    handle(req, res, requestId).catch((err: unknown) => {
      sendError(res, errorObjectOf(err, logger.child({ requestId })));
    });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InternalTokenMinter } from '@platform/auth';
import { errorObject, type CompiledRoute, type RouteSpec } from '@platform/contracts';
import { errorHeadersOf, errorObjectOf, sendError } from '@platform/http';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { KeyAuthenticator, KeyRecord } from '../domain/key-authenticator';
import { authenticateKey } from './authenticate-key';
import { forward, type ForwardDeps } from './forward';
import { keyedHeaders } from './idempotency-headers';
import { idempotencyKeyOf } from '@platform/service';
import { permittedRoute, type ForwardedRoute } from './portal-route';
import type { LiveCount, PerKeyLimiter, RateDecision } from '@platform/coordination';
import { requestCost } from '../domain/request-cost';
import { FairShare, type FairShareSettings } from '../domain/fair-share';
import { bodyReader } from './request-body';
import { sessionRequests, type SessionDeps, type SharedSteps } from './session-requests';
import type { LastUsedRecorder } from '../api-keys/last-used';
import type { Actor } from '../audit/audit.repository';
import type { IdentityService } from '../identity/identity.service';
import { isSignInPath, sessionTokenOf } from '../identity/session-request';

export interface PortalDeps extends ForwardDeps {
  keys: KeyAuthenticator;
  routes: CompiledRoute[];
  minter: InternalTokenMinter;
  /** Cost units per key a minute (RATE_LIMIT_PER_MINUTE, _BURST): in memory, or shared by every gateway. */
  keyLimiter: PerKeyLimiter;
  /** Each partner's calls in flight per service, and the queue behind that cap (for all gateways together). */
  fairShare: FairShareSettings;
  /** The live gateways the fair-share caps are split across (with REDIS_URL); unset, this one has the whole cap. */
  replicas?: LiveCount;
  bodyLimitBytes: number;
  /** The client address: the socket's, or the X-Forwarded-For client behind a trusted proxy. */
  clientIp(req: IncomingMessage): string;
  /** Failed authentications per client address: past the limit, 429 instead of 401. */
  authFailures: FailedAuthThrottle;
  /** Portal sessions (the pp_session cookie). */
  identity: IdentityService;
  /** Answers a gateway-owned route (sign-in, team, keys, audit log, settings). */
  runGatewayRoute: SessionDeps['runGatewayRoute'];
  /** Notes a key's use (written in batches, off this path). */
  lastUsed: Pick<LastUsedRecorder, 'seen'>;
  /** Records a forwarded route's audit event after a 2xx answer (see forwarded-audit.ts). */
  audit(spec: RouteSpec, method: string, path: string, status: number, partnerId: string, actor: Actor): void;
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
  const limiter = deps.keyLimiter;
  const readBody = bodyReader(deps.bodyLimitBytes);

  /** Sets the RateLimit fields; over the limit, answers 429 with Retry-After and says no. */
  const answered = (res: ServerResponse, rate: RateDecision) => {
    res.setHeader('RateLimit', rate.rateLimit);
    res.setHeader('RateLimit-Policy', rate.policy);
    if (rate.retryAfter === undefined) return true;
    res.setHeader('Retry-After', rate.retryAfter);
    sendError(res, errorObject('RATE.LIMITED'));
    return false;
  };
  // In memory the decision is synchronous (no promise on the hot path); shared, one Redis round trip.
  const withinRateLimit = (keyId: string, req: IncomingMessage, res: ServerResponse) => {
    const decided = limiter.hit(keyId, requestCost(req.method ?? 'GET', req.url ?? '/'));
    return decided instanceof Promise ? decided.then((rate) => answered(res, rate)) : answered(res, decided);
  };
  const forwardCall = fairShareForwarder(deps, new FairShare(deps.fairShare, deps.replicas), readBody);
  const handleSession = sessionRequests(deps, { withinRateLimit, forwardCall, readBody });

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const ip = deps.clientIp(req);
    // A portal session: the sign-in operations, or a session cookie without an API key.
    if (isSignInPath(req.url ?? '') || (req.headers.authorization === undefined && sessionTokenOf(req)))
      return handleSession(req, res, requestId, ip);
    const key = await authenticateKey(deps.keys, deps.logger, req, res, ip, requestId, deps.authFailures);
    if (!key || !(await withinRateLimit(key.id, req, res))) return;
    deps.lastUsed.seen(key.id);
    const permitted = permittedRoute(deps.routes, req, res, key);
    if (!permitted) return;
    const { spec, params } = permitted;
    // The gateway's own routes open to keys (the customer's access users) are answered here, not forwarded.
    if (spec.service === 'gateway') {
      const body = await readBody(req, res);
      return deps.runGatewayRoute(req, res, { spec, params, body, caller: { ip, key } });
    }
    const forwarded = spec as ForwardedRoute;
    await forwardCall(
      req,
      res,
      { spec: forwarded, token: keyToken(deps.minter, key, forwarded), ip, requestId, partnerId: key.partnerId },
      () => ({ type: 'API_KEY', id: key.id, label: key.prefix }),
    );
  }

  return (req, res, requestId) =>
    handle(req, res, requestId).catch((err: unknown) => {
      sendError(res, errorObjectOf(err, deps.logger.child({ requestId })), errorHeadersOf(err));
    });
}

/** Forwards a permitted call within the partner's fair share of the service; audited routes are recorded after a 2xx. */
function fairShareForwarder(deps: PortalDeps, shares: FairShare, readBody: ReturnType<typeof bodyReader>) {
  const forwardCall: SharedSteps['forwardCall'] = async (req, res, call, actor) => {
    const { spec, partnerId } = call;
    const body = await readBody(req, res, spec);
    const idempotencyKey = idempotencyKeyOf(req.method ?? 'GET', req.headers);
    // Under the cap the slot is taken synchronously: the common path adds no await.
    const lane = `${partnerId} ${spec.service}`;
    // Weighed by the rows it reads (a 100-row page 10, a bulk change like its largest page); any other call 1.
    const weight = requestCost('GET', req.url ?? '/');
    if (!shares.tryAcquire(lane, weight, spec.service) && !(await shares.wait(lane, weight, spec.service)))
      return void sendBusy(res);
    try {
      // A partner that gave up while its call waited gets no call made for it.
      if (res.destroyed) return;
      await forward(deps, req, res, {
        service: spec.service,
        token: call.token,
        ip: call.ip,
        requestId: call.requestId,
        headers: portalHeaders(req, spec, body, idempotencyKey),
        body,
        // This partner's time-outs and unavailable answers open only its own breaker for the service.
        partnerId,
        timeoutMs: spec.upstreamTimeoutMs,
        streamed: spec.streamed === true,
      });
    } finally {
      shares.release(lane, weight);
    }
    if (spec.audit) deps.audit(spec, req.method ?? 'GET', pathOf(req.url ?? '/'), res.statusCode, partnerId, actor());
  };
  return forwardCall;
}

/** The gateway's internal token for the key, in place of the key: the partner, the key's permissions and settings. */
const keyToken = (minter: InternalTokenMinter, key: KeyRecord, spec: RouteSpec) =>
  minter.mint(
    {
      partnerId: key.partnerId,
      keyId: key.id,
      permissions: key.permissions,
      requiredFields: key.requiredFields,
      defaults: key.defaults,
      partnerName: key.partnerName,
    },
    spec.service,
  );

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** The partner's request headers the service sees: content type, Accept, and a write's Idempotency-Key (see idempotency-headers.ts). */
function portalHeaders(
  req: IncomingMessage,
  spec: RouteSpec,
  body: Buffer | undefined,
  idempotencyKey: string | undefined,
) {
  const headers: Record<string, string> = {};
  if (body) headers['content-type'] = req.headers['content-type'] ?? 'application/json';
  if (req.headers.accept) headers.accept = req.headers.accept;
  if (idempotencyKey !== undefined) Object.assign(headers, keyedHeaders(req, idempotencyKey, body, spec));
  return headers;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InternalTokenMinter } from '@platform/auth';
import {
  accessRoleAtLeast,
  errorObject,
  matchRoute,
  type ErrorObject,
  type RouteSpec,
  type ServiceName,
} from '@platform/contracts';
import { sendError } from '@platform/http';
import type { Actor } from '../audit/audit.repository';
import { csrfPasses, OWNER_PATH, ownerSessionTokenOf, sessionTokenOf } from '../identity/session-request';
import type { SignedInOwner } from '../identity/signed-in-owner';
import type { SignedInUser } from '../identity/signed-in-user';
import type { CompiledRoute } from '@platform/contracts';
import type { Eventually } from '@platform/coordination';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { IdentityService } from '../identity/identity.service';
import type { GatewayCaller } from './gateway-routes';
import { routedOperation } from './portal-route';

/** What a session's request needs of the /portal handler's dependencies. */
export interface SessionDeps {
  routes: CompiledRoute[];
  minter: InternalTokenMinter;
  identity: IdentityService;
  /** A cookie that names no live session counts as a failed authentication of the client address. */
  authFailures: FailedAuthThrottle;
  runGatewayRoute(
    req: IncomingMessage,
    res: ServerResponse,
    call: { spec: RouteSpec; params: Record<string, string>; body: Buffer | undefined; caller: GatewayCaller },
  ): Promise<void>;
}

/** The /portal steps a session's request shares with a key's. */
export interface SharedSteps {
  withinRateLimit(bucket: string, req: IncomingMessage, res: ServerResponse): Eventually<boolean>;
  forwardCall(
    req: IncomingMessage,
    res: ServerResponse,
    call: {
      spec: RouteSpec & { service: ServiceName };
      token: string;
      ip: string;
      requestId: string;
      partnerId: string;
    },
    actor: () => Actor,
  ): Promise<void>;
  readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined>;
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** The matched route and its params; undefined once 404 or 405 (with Allow) has been sent. HEAD is routed as GET. */
function routeOf(deps: SessionDeps, req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? 'GET';
  const found = matchRoute(deps.routes, method === 'HEAD' ? 'GET' : method, pathOf(req.url ?? '/'));
  if (found.kind === 'not_found') return void sendError(res, errorObject('ROUTE.NOT_FOUND'));
  if (found.kind === 'method_not_allowed') {
    const allowed = found.allowed.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()]));
    return void sendError(res, errorObject('ROUTE.METHOD_NOT_ALLOWED', undefined, { allowed }), {
      Allow: allowed.join(', '),
    });
  }
  routedOperation.set(res, found.route.spec.operationId);
  return { spec: found.route.spec, params: found.params };
}

/** Why a signed-in user may not call a partner route (no session, sign-in not complete, a permission missing), or undefined. */
function refusalOf(spec: RouteSpec, user: SignedInUser | undefined): ErrorObject | undefined {
  if (spec.permission === undefined) return errorObject('ROUTE.NOT_FOUND');
  if (!user) return errorObject('AUTH.SESSION_REQUIRED');
  if (user.stage !== 'ACTIVE')
    return errorObject('AUTH.SESSION_REQUIRED', 'Complete two-factor sign-in first (see the session stage).');
  const missing = [spec.permission, spec.userPermission].find((p) => p && !user.permissions.includes(p));
  if (missing)
    return errorObject('AUTH.FORBIDDEN', `Your role ${user.role} lacks the permission ${missing}.`, {
      required: missing,
    });
  return undefined;
}

/** The internal token of a session's call: keyId user:<id>, the user, the role's permissions, the partner's settings. */
const userToken = (minter: InternalTokenMinter, user: SignedInUser, service: ServiceName) =>
  minter.mint(
    {
      partnerId: user.partnerId,
      keyId: `user:${user.userId}`,
      user: { id: user.userId, email: user.email },
      permissions: [...user.permissions],
      requiredFields: user.requiredFields,
      defaults: user.defaults,
      partnerName: user.partnerName,
    },
    service,
  );

/** Why the owner may not call an owner console route (no session, a role below the route's), or undefined. */
export function ownerRefusal(spec: RouteSpec, owner: SignedInOwner | undefined): ErrorObject | undefined {
  if (spec.access !== 'owner') return undefined;
  if (!owner) return errorObject('AUTH.SESSION_REQUIRED', 'Sign in to the owner console first: no valid session.');
  if (!accessRoleAtLeast(owner.role, spec.ownerRole))
    return errorObject(
      'AUTH.FORBIDDEN',
      `Your role ${owner.role} may not do this; it takes ${spec.ownerRole === 'OWNER' ? 'an OWNER' : `${spec.ownerRole} or OWNER`}.`,
      { required: spec.ownerRole },
    );
  return undefined;
}

/**
 * The owner console (/portal/owner/...): its own cookie, read here only, so an owner session never
 * reaches a partner route (there it is no session at all), and nothing but an owner session reaches
 * an owner console route (an API key or a partner session is no session here: 401) -> CSRF on
 * writes -> the route's role (ownerRole) -> rate limit per owner -> the gateway's own handler.
 */
async function ownerRequest(
  deps: SessionDeps,
  steps: SharedSteps,
  req: IncomingMessage,
  res: ServerResponse,
  call: { spec: RouteSpec; params: Record<string, string>; ip: string },
) {
  const token = ownerSessionTokenOf(req);
  const owner = token ? await deps.identity.owners.resolve(token) : undefined;
  if (token && !owner) {
    const retryAfter = await deps.authFailures.failed(call.ip);
    if (retryAfter !== undefined)
      return void sendError(res, errorObject('RATE.LIMITED'), { 'Retry-After': retryAfter });
  }
  // Asking for a link or redeeming one uses no session, so needs no CSRF token either.
  const usesSession =
    call.spec.operationId !== 'createOwnerSession' && call.spec.operationId !== 'createOwnerSignInLink';
  if (usesSession && owner && !csrfPasses(req, owner.csrfToken)) return void sendError(res, errorObject('AUTH.CSRF'));
  const refusal = ownerRefusal(call.spec, owner);
  if (refusal) return void sendError(res, refusal);
  if (owner && call.spec.access === 'owner' && !(await steps.withinRateLimit(`owner:${owner.ownerUserId}`, req, res)))
    return;
  const body = await steps.readBody(req, res);
  return deps.runGatewayRoute(req, res, { spec: call.spec, params: call.params, body, caller: { ip: call.ip, owner } });
}

/**
 * A request of a portal session (the sign-in operations, or a session cookie without an API key):
 * route -> the session, re-read with its user (a role change or deactivation counts at once) ->
 * CSRF on writes -> the role's permissions -> rate limit per user -> the gateway's own handler, or
 * forward as for a key (fair share per partner).
 */
export function sessionRequests(deps: SessionDeps, steps: SharedSteps) {
  return async (req: IncomingMessage, res: ServerResponse, requestId: string, ip: string) => {
    const route = routeOf(deps, req, res);
    if (!route) return;
    const { spec, params } = route;
    if (spec.path.startsWith(OWNER_PATH)) return ownerRequest(deps, steps, req, res, { spec, params, ip });
    const token = sessionTokenOf(req);
    const user = token ? await deps.identity.resolveSession(token) : undefined;
    if (token && !user) {
      // Guessing session ids costs a query each: past the address's failures, 429 before anything else.
      const retryAfter = await deps.authFailures.failed(ip);
      if (retryAfter !== undefined)
        return void sendError(res, errorObject('RATE.LIMITED'), { 'Retry-After': retryAfter });
    }
    // Asking for a link or redeeming one uses no session, so needs no CSRF token either.
    const usesSession = spec.operationId !== 'createSignInLink' && spec.operationId !== 'createSession';
    if (usesSession && user && !csrfPasses(req, user.csrfToken)) return void sendError(res, errorObject('AUTH.CSRF'));
    if (spec.access !== 'sign-in') {
      const refusal = refusalOf(spec, user);
      if (refusal) return void sendError(res, refusal);
      if (!(await steps.withinRateLimit(`user:${user!.userId}`, req, res))) return;
    }
    if (spec.service === 'gateway') {
      const body = await steps.readBody(req, res);
      return deps.runGatewayRoute(req, res, { spec, params, body, caller: { ip, user } });
    }
    const signedIn = user!;
    await steps.forwardCall(
      req,
      res,
      {
        spec: spec as RouteSpec & { service: ServiceName },
        token: userToken(deps.minter, signedIn, spec.service),
        ip,
        requestId,
        partnerId: signedIn.partnerId,
      },
      () => ({ type: 'USER', id: signedIn.userId, label: signedIn.email }),
    );
  };
}

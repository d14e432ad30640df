import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import {
  accessUserRoutes,
  authRoutes,
  identityRoutes,
  OWNER_SESSION_COOKIE,
  ownerSessionRoutes,
  SESSION_COOKIE,
  userRoutes,
  type RouteSpec,
} from '@platform/contracts';
import { AppError, listPage, parseRequest, reply, sendResult, type Handlers } from '@platform/http';
import type { KeyedSettings } from '@platform/service';
import type { PortalKeysService } from '../api-keys/portal-keys.service';
import { AuditRepository, auditEventView } from '../audit/audit.repository';
import type { Kysely } from '@platform/db';
import type { Logger } from '@platform/observability';
import type { GatewayDb } from '../db/tables';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { IdentityService } from '../identity/identity.service';
import { sessionView, userActor, type SignedInUser } from '../identity/signed-in-user';
import { keyedWrites } from './keyed-writes';
import type { UsersService } from '../identity/users.service';
import type { SettingsService } from '../settings/settings.service';
import type { KeyRecord } from '../domain/key-authenticator';
import type { SignedInOwner } from '../identity/signed-in-owner';
import type { AccessActor, AccessUsersService } from '../owner-access/access-users.service';
import type { Customers, CustomerQuery } from '../owner-access/customers';
import type { WriteSender } from './keyed-writes';

/**
 * Who calls a gateway-owned route: the client, and the partner session's user, the API key (on
 * the routes open to keys) or the owner console's session when there is one.
 */
export interface GatewayCaller {
  ip: string;
  user?: SignedInUser;
  key?: KeyRecord;
  owner?: SignedInOwner;
}

export interface GatewayRouteDeps {
  db: Kysely<GatewayDb>;
  identity: IdentityService;
  users: UsersService;
  keys: PortalKeysService;
  settings: SettingsService;
  /** The customer's access users, and which customer a request names (asked of domains-svc). */
  accessUsers: AccessUsersService;
  customers: Customers;
  /** Failed sign-in link redemptions count as failed authentications of the client address. */
  authFailures: FailedAuthThrottle;
  /** Secure cookies unless in development or test (plain http on 127.0.0.1). */
  secureCookies: boolean;
  /** Where keyed writes keep their Idempotency-Key and answer (the gateway's idempotency_keys). */
  keyed: KeyedSettings;
  /** Outside production: every answer is checked against its route's response schema (a drift is logged and answers 500). */
  checkAnswersWith?: Logger;
}

type IdentityRoute = (typeof identityRoutes)[number];

const sessionRequired = () => new AppError('AUTH.SESSION_REQUIRED');

/** The session's user once sign-in is complete (stage ACTIVE). */
function activeUser(caller: GatewayCaller): SignedInUser {
  if (!caller.user) throw sessionRequired();
  if (caller.user.stage !== 'ACTIVE')
    throw new AppError('AUTH.SESSION_REQUIRED', 'Complete two-factor sign-in first (see the session stage).');
  return caller.user;
}

/** The session's user at any stage (the TOTP operations). */
function anyStageUser(caller: GatewayCaller): SignedInUser {
  if (!caller.user) throw sessionRequired();
  return caller.user;
}

const manager = (u: SignedInUser) => ({ partnerId: u.partnerId, userId: u.userId, actor: userActor(u) });
const team = (u: SignedInUser) => ({ partnerId: u.partnerId, actor: userActor(u) });

/** The partner calling with an API key or a signed-in user: whom services see (CallAs) and whom the audit log names. */
function partnerOf(caller: GatewayCaller) {
  if (caller.key) {
    const { key } = caller;
    return {
      partnerId: key.partnerId,
      as: { partnerId: key.partnerId, keyId: key.id },
      actor: { type: 'API_KEY' as const, id: key.id, label: key.prefix },
    };
  }
  const user = activeUser(caller);
  return { partnerId: user.partnerId, as: { partnerId: user.partnerId, keyId: `user:${user.userId}` }, actor: userActor(user) };
}

/** Who sends a keyed write: the user (their id, as before) or the key. */
const senderOf = (caller: GatewayCaller): WriteSender | undefined =>
  caller.key
    ? { partnerId: caller.key.partnerId, id: `key:${caller.key.id}` }
    : caller.user && { partnerId: caller.user.partnerId, id: caller.user.userId };

type SignInRoute = (typeof authRoutes)[number];
type TeamRoute = (typeof userRoutes)[number];
type AccessRoute = (typeof accessUserRoutes)[number];
type OwnerRoute = (typeof ownerSessionRoutes)[number];
type AccountRoute = Exclude<IdentityRoute, SignInRoute | TeamRoute | AccessRoute | OwnerRoute>;

/** The handlers of every gateway-owned route, by operationId, typed from the route table. */
export const gatewayHandlers = (deps: GatewayRouteDeps): Handlers<IdentityRoute, GatewayCaller> => ({
  ...signInHandlers(deps),
  ...teamHandlers(deps),
  ...accountHandlers(deps),
  ...accessHandlers(deps),
  ...ownerHandlers(deps),
});

const cookieOf =
  (name: string, secure: boolean) =>
  (value: string, maxAge: number) =>
    `${name}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;

/** The customer's access users: an API key or a partner user holding instance:read / instance:write. */
function accessHandlers(deps: GatewayRouteDeps): Handlers<AccessRoute, GatewayCaller> {
  /** The partner, and the customer account (company) the query names: domains-svc's 404/400/409 pass through. */
  const accountOf = async (caller: GatewayCaller, query: CustomerQuery): Promise<AccessActor> => {
    const partner = partnerOf(caller);
    const companyId = await deps.customers.companyOf(partner.as, query);
    return { partnerId: partner.partnerId, companyId, actor: partner.actor };
  };
  return {
    listAccessUsers: async ({ query, caller }) => deps.accessUsers.list(await accountOf(caller, query), query),
    inviteAccessUser: async ({ query, body, caller }) =>
      reply(201, { result: await deps.accessUsers.invite(await accountOf(caller, query), body) }),
    provisionAccessUser: async ({ query, body, caller }) => ({
      result: await deps.accessUsers.provision(await accountOf(caller, query), body),
    }),
    getAccessUser: async ({ params, query, caller }) => ({
      result: await deps.accessUsers.get(await accountOf(caller, query), params.userId),
    }),
    updateAccessUser: async ({ params, query, body, caller }) => ({
      result: await deps.accessUsers.update(await accountOf(caller, query), params.userId, body),
    }),
    deleteAccessUser: async ({ params, query, caller }) => {
      await deps.accessUsers.remove(await accountOf(caller, query), params.userId);
      return { result: { deleted: true } };
    },
  };
}

/** The owner console's sign-in and session (audience OWNER, its own cookie). */
function ownerHandlers(deps: GatewayRouteDeps): Handlers<OwnerRoute, GatewayCaller> {
  const cookie = cookieOf(OWNER_SESSION_COOKIE, deps.secureCookies);
  const signedIn = (caller: GatewayCaller) => {
    if (!caller.owner) throw sessionRequired();
    return caller.owner;
  };
  const view = async (owner: SignedInOwner) => ({
    audience: 'OWNER' as const,
    user: { id: owner.ownerUserId, email: owner.email, name: owner.name, role: owner.role },
    partner: { name: owner.partnerName },
    company_id: owner.companyId,
    domains: await deps.customers.domainsOf(
      { partnerId: owner.partnerId, keyId: `owner:${owner.ownerUserId}` },
      owner.companyId,
    ),
    csrf_token: owner.csrfToken,
  });
  return {
    createOwnerSession: async ({ body, caller }) => {
      const created = await deps.identity.createOwnerSession(body.token);
      if (!created) {
        const retryAfter = deps.authFailures.failed(caller.ip);
        if (retryAfter !== undefined)
          throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': retryAfter });
        throw new AppError('AUTH.SIGN_IN_LINK');
      }
      return reply(
        201,
        { result: await view(created.owner) },
        { 'Set-Cookie': cookie(created.cookieToken, deps.identity.cookieMaxAgeSeconds), 'Cache-Control': 'no-store' },
      );
    },
    getOwnerSession: async ({ caller }) =>
      reply(200, { result: await view(signedIn(caller)) }, { 'Cache-Control': 'no-store' }),
    deleteOwnerSession: async ({ caller }) => {
      await deps.identity.endSession(signedIn(caller));
      return reply(204, undefined, { 'Set-Cookie': cookie('', 0) });
    },
  };
}

/** Sign-in, the session, TOTP. */
function signInHandlers(deps: GatewayRouteDeps): Handlers<SignInRoute, GatewayCaller> {
  const cookie = cookieOf(SESSION_COOKIE, deps.secureCookies);
  return {
    createSignInLink: ({ body, caller }) => {
      deps.identity.requestSignInLink(body.email, caller.ip);
      return reply(202, { result: { sent: true as const } });
    },
    createSession: async ({ body, caller }) => {
      const created = await deps.identity.createSession(body.token);
      if (!created) {
        const retryAfter = deps.authFailures.failed(caller.ip);
        if (retryAfter !== undefined)
          throw new AppError('RATE.LIMITED', undefined, undefined, { 'Retry-After': retryAfter });
        throw new AppError('AUTH.SIGN_IN_LINK');
      }
      return reply(
        201,
        { result: sessionView(created.user) },
        { 'Set-Cookie': cookie(created.cookieToken, deps.identity.cookieMaxAgeSeconds), 'Cache-Control': 'no-store' },
      );
    },
    getSession: ({ caller }) =>
      reply(200, { result: sessionView(anyStageUser(caller)) }, { 'Cache-Control': 'no-store' }),
    deleteSession: async ({ caller }) => {
      await deps.identity.endSession(anyStageUser(caller));
      return reply(204, undefined, { 'Set-Cookie': cookie('', 0) });
    },
    verifySessionTotp: async ({ body, caller }) => ({
      result: sessionView(await deps.identity.verifySessionTotp(anyStageUser(caller), body)),
    }),
    startTotpEnrolment: async ({ caller }) =>
      reply(201, { result: await deps.identity.startTotpEnrolment(anyStageUser(caller)) }),
    confirmTotpEnrolment: async ({ body, caller }) => ({
      result: await deps.identity.confirmTotpEnrolment(anyStageUser(caller), body.code),
    }),
    disableTotp: async ({ body, caller }) => {
      await deps.identity.disableTotp(anyStageUser(caller), body.code);
      return reply(204);
    },
  };
}

/** The team: signed-in users of the partner only. */
function teamHandlers(deps: GatewayRouteDeps): Handlers<TeamRoute, GatewayCaller> {
  return {
    listUsers: ({ query, caller }) => deps.users.list(activeUser(caller).partnerId, query),
    createUser: async ({ body, caller }) =>
      reply(201, { result: (await deps.users.invite(team(activeUser(caller)), body)).user }),
    getUser: async ({ params, caller }) => ({
      result: await deps.users.get(activeUser(caller).partnerId, params.userId),
    }),
    updateUser: async ({ params, body, caller }) => ({
      result: await deps.users.update(team(activeUser(caller)), params.userId, body),
    }),
    deleteUser: async ({ params, caller }) => {
      await deps.users.remove(team(activeUser(caller)), params.userId);
      return { result: { deleted: true } };
    },
    reinviteUser: async ({ params, caller }) =>
      reply(202, { result: (await deps.users.reinvite(team(activeUser(caller)), params.userId)).user }),
  };
}

/** API keys, the audit log and settings: signed-in users of the partner only. */
function accountHandlers(deps: GatewayRouteDeps): Handlers<AccountRoute, GatewayCaller> {
  return {
    listApiKeys: ({ query, caller }) => deps.keys.list(activeUser(caller).partnerId, query),
    createApiKey: async ({ body, caller }) =>
      reply(201, { result: await deps.keys.create(manager(activeUser(caller)), body) }),
    revokeApiKey: async ({ params, caller }) => ({
      result: await deps.keys.revoke(manager(activeUser(caller)), params.keyId),
    }),
    rollApiKey: async ({ params, body, caller }) =>
      reply(201, { result: await deps.keys.roll(manager(activeUser(caller)), params.keyId, body.overlap_hours) }),

    listAuditEvents: async ({ query, caller }) => {
      const { partnerId } = activeUser(caller);
      const { items, meta } = await listPage(query, ({ offset, limitPlusOne }) =>
        new AuditRepository(deps.db).list(
          partnerId,
          { actorId: query.actor_id, kind: query.kind },
          offset,
          limitPlusOne,
        ),
      );
      return { meta, result: items.map(auditEventView) };
    },

    getSettings: async ({ caller }) => ({ result: await deps.settings.get(activeUser(caller).partnerId) }),
    updateSettings: async ({ body, caller }) => {
      const user = activeUser(caller);
      return { result: await deps.settings.update(user.partnerId, userActor(user), body) };
    },
  };
}

type AnyHandler = (input: {
  params: unknown;
  query: unknown;
  body: unknown;
  caller: GatewayCaller;
  req: IncomingMessage;
}) => unknown;

/** The raw body as JSON: 400 VALIDATION.MALFORMED_JSON when it is not. */
function jsonOf(body: Buffer | undefined): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new AppError('VALIDATION.MALFORMED_JSON');
  }
}

/**
 * Answers a route the gateway owns, as a service's dispatcher would: its Idempotency-Key checked,
 * params, query and body validated with the route's schemas (every issue in one 400), then its
 * handler, keyed as a service's write is (keyed-writes.ts), and the answer sent as a service
 * sends it (checked against the route's response schema outside production).
 */
export function gatewayRouteRunner(deps: GatewayRouteDeps) {
  const handlers = gatewayHandlers(deps) as unknown as Record<string, AnyHandler>;
  const keyed = keyedWrites(deps.keyed);
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    call: { spec: RouteSpec; params: Record<string, string>; body: Buffer | undefined; caller: GatewayCaller },
  ) => {
    const { spec, caller } = call;
    const key = keyed.keyOf({ req, spec });
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const parsed = parseRequest(
      { params: call.params, query: q === -1 ? {} : parseQuery(url.slice(q + 1)), body: jsonOf(call.body) },
      { params: spec.params, query: spec.query, body: spec.body },
    );
    const handler = handlers[spec.operationId];
    if (!handler) throw new AppError('ROUTE.NOT_FOUND');
    const result = await keyed.run(key, { req, spec, body: call.body, sender: senderOf(caller) }, async () =>
      handler({ ...parsed, caller, req }),
    );
    sendResult(res, spec, result, deps.checkAnswersWith);
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { authRoutes, identityRoutes, SESSION_COOKIE, userRoutes, type RouteSpec } from '@platform/contracts';
import {
  AppError,
  listPage,
  parseRequest,
  reply,
  sendResult,
  sendStream,
  StreamReply,
  type Handlers,
} from '@platform/http';
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
import {
  accessHandlers,
  ownerHandlers,
  type AccessRoute,
  type AccessRouteDeps,
  type OwnerRoute,
} from './access-routes';
import { activeUser, cookieOf, sessionCreated, sessionRequired, type GatewayCaller } from './gateway-caller';
import {
  ownerConsoleHandlers,
  type OwnerConsoleDeps,
  type OwnerConsoleRoute,
} from '../owner-console/owner-console.handlers';

export type { GatewayCaller } from './gateway-caller';
import type { WriteSender } from './keyed-writes';

export interface GatewayRouteDeps extends AccessRouteDeps, OwnerConsoleDeps {
  db: Kysely<GatewayDb>;
  identity: IdentityService;
  users: UsersService;
  keys: PortalKeysService;
  settings: SettingsService;
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

/** The session's user at any stage (the TOTP operations). */
function anyStageUser(caller: GatewayCaller): SignedInUser {
  if (!caller.user) throw sessionRequired();
  return caller.user;
}

const manager = (u: SignedInUser) => ({ partnerId: u.partnerId, userId: u.userId, actor: userActor(u) });
const team = (u: SignedInUser) => ({ partnerId: u.partnerId, actor: userActor(u) });

/** Who sends a keyed write: the user (their id, as before), the key, or the owner console's user (keys are the partner's). */
export const senderOf = (caller: GatewayCaller): WriteSender | undefined => {
  if (caller.key) return { partnerId: caller.key.partnerId, id: `key:${caller.key.id}` };
  if (caller.user) return { partnerId: caller.user.partnerId, id: caller.user.userId };
  return caller.owner && { partnerId: caller.owner.partnerId, id: `owner:${caller.owner.ownerUserId}` };
};

type SignInRoute = (typeof authRoutes)[number];
type TeamRoute = (typeof userRoutes)[number];
type AccountRoute = Exclude<IdentityRoute, SignInRoute | TeamRoute | AccessRoute | OwnerRoute | OwnerConsoleRoute>;

/** The handlers of every gateway-owned route, by operationId, typed from the route table. */
export const gatewayHandlers = (deps: GatewayRouteDeps): Handlers<IdentityRoute, GatewayCaller> => ({
  ...signInHandlers(deps),
  ...teamHandlers(deps),
  ...accountHandlers(deps),
  ...accessHandlers(deps),
  ...ownerHandlers(deps),
  ...ownerConsoleHandlers(deps),
});

/** Sign-in, the session, TOTP. */
function signInHandlers(deps: GatewayRouteDeps): Handlers<SignInRoute, GatewayCaller> {
  const cookie = cookieOf(SESSION_COOKIE, deps.secureCookies);
  return {
    createSignInLink: async ({ body, caller }) => {
      await deps.identity.requestSignInLink(body.email, caller.ip);
      return reply(202, { result: { sent: true as const } });
    },
    createSession: async ({ body, caller }) => {
      const created = await deps.identity.createSession(body.token);
      const answer = { authFailures: deps.authFailures, cookie, maxAgeSeconds: deps.identity.cookieMaxAgeSeconds() };
      return sessionCreated(created, caller.ip, answer, () => sessionView(created!.user));
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
    // A streamed download (the owner's records export) is piped as it comes, never held.
    if (result instanceof StreamReply) return sendStream(res, result);
    sendResult(res, spec, result, deps.checkAnswersWith);
  };
}

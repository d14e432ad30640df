import { accessUserRoutes, OWNER_SESSION_COOKIE, ownerSessionRoutes } from '@platform/contracts';
import { reply, type Handlers } from '@platform/http';
import { ownerCallAs, type SignedInOwner } from '../identity/signed-in-owner';
import { userActor } from '../identity/signed-in-user';
import type { CustomerQuery } from '../owner-access/customers';
import { activeUser, cookieOf, sessionCreated, sessionRequired, type GatewayCaller } from './gateway-caller';
import type { FailedAuthThrottle } from '../domain/failed-auth-throttle';
import type { IdentityService } from '../identity/identity.service';
import type { AccessActor, AccessUsersService } from '../owner-access/access-users.service';
import type { Customers } from '../owner-access/customers';

/** What the access users' and the owner console's handlers need (part of GatewayRouteDeps). */
export interface AccessRouteDeps {
  identity: IdentityService;
  /** The customer's access users, and which customer a request names (asked of domains-svc). */
  accessUsers: AccessUsersService;
  customers: Customers;
  /** Failed sign-in link redemptions count as failed authentications of the client address. */
  authFailures: FailedAuthThrottle;
  secureCookies: boolean;
}

export type AccessRoute = (typeof accessUserRoutes)[number];
export type OwnerRoute = (typeof ownerSessionRoutes)[number];

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
  return {
    partnerId: user.partnerId,
    as: { partnerId: user.partnerId, keyId: `user:${user.userId}` },
    actor: userActor(user),
  };
}

/** The customer's access users: an API key or a partner user holding instance:read / instance:write. */
export function accessHandlers(deps: AccessRouteDeps): Handlers<AccessRoute, GatewayCaller> {
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
export function ownerHandlers(deps: AccessRouteDeps): Handlers<OwnerRoute, GatewayCaller> {
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
    domains: await deps.customers.domainsOf(ownerCallAs(owner), owner.companyId),
    csrf_token: owner.csrfToken,
  });
  return {
    createOwnerSignInLink: async ({ body, caller }) => {
      // The same throttles and answer as the partner's links; who the domain is is asked after the answer.
      await deps.identity.requestLink(body.email, caller.ip, async () => {
        const domain = await deps.customers.ownerOf(body.domain_id);
        if (domain) await deps.accessUsers.sendOwnerSignInLink(body.email, domain);
      });
      return reply(202, { result: { sent: true as const } });
    },
    createOwnerSession: async ({ body, caller }) => {
      const created = await deps.identity.owners.create(body.token);
      const answer = { authFailures: deps.authFailures, cookie, maxAgeSeconds: deps.identity.cookieMaxAgeSeconds() };
      return sessionCreated(created, caller.ip, answer, () => view(created!.owner));
    },
    getOwnerSession: async ({ caller }) =>
      reply(200, { result: await view(signedIn(caller)) }, { 'Cache-Control': 'no-store' }),
    deleteOwnerSession: async ({ caller }) => {
      await deps.identity.endSession(signedIn(caller));
      return reply(204, undefined, { 'Set-Cookie': cookie('', 0) });
    },
  };
}

import { RECORDS_EXPORT_MEDIA, type OwnerRecordsExportQuery, type ownerConsoleRoutes } from '@platform/contracts';
import { reply, streamReply, type Handlers } from '@platform/http';
import type { GatewayCaller } from '../http/gateway-caller';
import { sessionRequired } from '../http/gateway-caller';
import { ownerActor, type SignedInOwner } from '../identity/signed-in-owner';
import type { AccessActor, AccessUsersService } from '../owner-access/access-users.service';
import type { OwnerDomains } from './owner-domains';
import { ownerRequestHandlers, type OwnerRequestsRoute } from './owner-requests';

export type OwnerConsoleRoute = (typeof ownerConsoleRoutes)[number];
type UsersRoute = Extract<
  OwnerConsoleRoute,
  { operationId: 'listOwnerUsers' | 'inviteOwnerUser' | 'updateOwnerUser' | 'deleteOwnerUser' }
>;
type DomainRoute = Exclude<OwnerConsoleRoute, UsersRoute | OwnerRequestsRoute>;

/** What the owner console's handlers need (part of GatewayRouteDeps). */
export interface OwnerConsoleDeps {
  ownerDomains: OwnerDomains;
  accessUsers: AccessUsersService;
}

/** The session's owner (the dispatcher has refused a request without one, or with too low a role). */
function ownerOf(caller: GatewayCaller): SignedInOwner {
  if (!caller.owner) throw sessionRequired();
  return caller.owner;
}

/** The owner's own account, acting as themselves (their role decides what they may do to OWNERs). */
const accountOf = (owner: SignedInOwner): AccessActor => ({
  partnerId: owner.partnerId,
  companyId: owner.companyId,
  actor: ownerActor(owner),
  role: owner.role,
});

/** The domain's consent records, streamed from consent-svc as they are read (CSV unless NDJSON is asked). */
async function exportRecords(
  domains: OwnerDomains,
  owner: SignedInOwner,
  domainId: string,
  query: OwnerRecordsExportQuery,
) {
  const { domain, body } = await domains.exportRecords(owner, domainId, query);
  const media = query.format === 'ndjson' ? RECORDS_EXPORT_MEDIA.ndjson : `${RECORDS_EXPORT_MEDIA.csv}; charset=utf-8`;
  return streamReply(`consent-records-${domain.hostname}.${query.format}`, media, body);
}

/** The customer's domain: the widget, the company, the site check and scan, the records. */
function domainHandlers(domains: OwnerDomains): Handlers<DomainRoute, GatewayCaller> {
  return {
    getOwnerProperty: async ({ params, caller }) => ({
      result: await domains.property(ownerOf(caller), params.domainId),
    }),
    updateOwnerProperty: async ({ params, body, caller }) => ({
      result: await domains.updateProperty(ownerOf(caller), params.domainId, body),
    }),
    getOwnerCompany: async ({ params, caller }) => ({
      result: await domains.company(ownerOf(caller), params.domainId),
    }),
    updateOwnerCompany: async ({ params, body, caller }) => ({
      result: await domains.updateCompany(ownerOf(caller), params.domainId, body),
    }),
    checkOwnerInstall: async ({ params, caller }) => ({
      result: await domains.installCheck(ownerOf(caller), params.domainId),
    }),
    getOwnerScan: async ({ params, caller }) => ({ result: await domains.scan(ownerOf(caller), params.domainId) }),
    startOwnerScan: async ({ params, caller }) =>
      reply(202, { result: await domains.startScan(ownerOf(caller), params.domainId) }),
    getOwnerCookieDeclaration: async ({ params, caller }) => ({
      result: await domains.cookieDeclaration(ownerOf(caller), params.domainId),
    }),
    listOwnerRecords: async ({ params, query, caller }) => {
      const owner = ownerOf(caller);
      return domains.records(owner, await domains.domainOf(owner, params.domainId), query);
    },
    exportOwnerRecords: ({ params, query, caller }) => exportRecords(domains, ownerOf(caller), params.domainId, query),
    getOwnerStats: async ({ params, query, caller }) => domains.stats(ownerOf(caller), params.domainId, query),
  };
}

/** The account's users, as the owner manages them (AccessUsersService's rules, with the owner's role). */
function userHandlers(users: AccessUsersService): Handlers<UsersRoute, GatewayCaller> {
  return {
    listOwnerUsers: ({ query, caller }) => users.list(accountOf(ownerOf(caller)), query),
    inviteOwnerUser: async ({ body, caller }) =>
      reply(201, { result: await users.invite(accountOf(ownerOf(caller)), body) }),
    updateOwnerUser: async ({ params, body, caller }) => ({
      result: await users.update(accountOf(ownerOf(caller)), params.userId, body),
    }),
    deleteOwnerUser: async ({ params, caller }) => {
      await users.remove(accountOf(ownerOf(caller)), params.userId);
      return { result: { deleted: true } };
    },
  };
}

/** The owner console's operations (access 'owner'): the session and its role were checked by the dispatcher. */
export function ownerConsoleHandlers(deps: OwnerConsoleDeps): Handlers<OwnerConsoleRoute, GatewayCaller> {
  return {
    ...domainHandlers(deps.ownerDomains),
    ...userHandlers(deps.accessUsers),
    ...ownerRequestHandlers(deps.ownerDomains),
  };
}

import { dataRequestRoutes, routeOf, type ownerRequestRoutes } from '@platform/contracts';
import type { Handlers } from '@platform/http';
import type { GatewayCaller } from '../http/gateway-caller';
import { sessionRequired } from '../http/gateway-caller';
import { ownerCallAs, type SignedInOwner } from '../identity/signed-in-owner';
import type { OwnerDomains } from './owner-domains';

const listRequests = routeOf(dataRequestRoutes, 'listDataRequests');
const getRequest = routeOf(dataRequestRoutes, 'getDataRequest');
const updateRequest = routeOf(dataRequestRoutes, 'updateDataRequest');

export type OwnerRequestsRoute = (typeof ownerRequestRoutes)[number];

function ownerOf(caller: GatewayCaller): SignedInOwner {
  if (!caller.owner) throw sessionRequired();
  return caller.owner;
}

/**
 * The console's inbox of data subject requests: the domain is first made sure to be the signed-in
 * customer's (OwnerDomains.domainOf: any other is 404), then consent-svc's partner routes are
 * called for it as the partner with keyId owner:<id>, which the request's history names; a change
 * is also in the partner's audit log.
 */
export function ownerRequestHandlers(domains: OwnerDomains): Handlers<OwnerRequestsRoute, GatewayCaller> {
  return {
    listOwnerRequests: async ({ params, query, caller }) => {
      const owner = ownerOf(caller);
      const domain = await domains.domainOf(owner, params.domainId);
      return domains.consent.call(listRequests, {
        as: ownerCallAs(owner),
        query: {
          domain_id: domain.id,
          page: String(query.page),
          limit: String(query.limit),
          status: query.status,
          due_before: query.due_before,
          due_after: query.due_after,
        },
      });
    },
    getOwnerRequest: async ({ params, caller }) => {
      const owner = ownerOf(caller);
      const domain = await domains.domainOf(owner, params.domainId);
      return domains.consent.call(getRequest, {
        as: ownerCallAs(owner),
        params: { requestId: params.requestId },
        query: { domain_id: domain.id },
      });
    },
    updateOwnerRequest: async ({ params, body, caller }) => {
      const owner = ownerOf(caller);
      const domain = await domains.domainOf(owner, params.domainId);
      const answer = await domains.consent.call(updateRequest, {
        as: ownerCallAs(owner),
        params: { requestId: params.requestId },
        query: { domain_id: domain.id },
        body,
      });
      // The partner's audit log names the owner and what they did (status, extend, note), never the texts.
      await domains.audit(owner, 'data_request.updated', { type: 'data_request', id: params.requestId }, domain, body);
      return answer;
    },
  };
}

import type { InternalCaller } from '@platform/auth';
import type { dataRequestPublicRoutes, dataRequestRoutes } from '@platform/contracts';
import type { Handlers } from '@platform/http';
import type { ConsentContext } from '../domain/context';
import { confirmDataRequest } from './confirm.service';
import { getDataRequest, listDataRequests, scopeOf } from './reads.service';
import { updateDataRequest } from './work.service';

type Route = (typeof dataRequestRoutes)[number] | (typeof dataRequestPublicRoutes)[number];

/** The partner's requests (read, worked: the owner console acts through these) and the requester's confirmation. */
export function dataRequestHandlers(ctx: ConsentContext): Handlers<Route, InternalCaller> {
  return {
    listDataRequests: ({ caller, query }) => listDataRequests(ctx.db, caller.partnerId, query),
    getDataRequest: async ({ caller, params, query }) => ({
      result: await getDataRequest(ctx.db, scopeOf(caller.partnerId, query), params.requestId),
    }),
    updateDataRequest: async ({ caller, params, query, body }) => ({
      result: await updateDataRequest(ctx.db, scopeOf(caller.partnerId, query), params.requestId, {
        body,
        actor: caller.keyId,
      }),
    }),
    confirmDataRequest: async ({ body }) => ({ result: await confirmDataRequest(ctx, ctx.db, body.token) }),
  };
}

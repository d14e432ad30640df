import type { instanceRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import type { Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import {
  getInstanceCompany,
  getInstanceProperty,
  updateInstanceCompany,
  updateInstanceProperty,
} from './instance.service';

/** The customer's company and property, named by merchant_id or domain_id (see instance.service). */
export function instanceHandlers(ctx: DomainsContext): Handlers<(typeof instanceRoutes)[number], InternalCaller> {
  return {
    getInstanceCompany: async ({ caller, query }) => ({
      result: await getInstanceCompany(ctx, caller.partnerId, query),
    }),
    updateInstanceCompany: async ({ caller, query, body }) => ({
      result: await updateInstanceCompany(ctx, caller.partnerId, query, body),
    }),
    getInstanceProperty: async ({ caller, query }) => ({
      result: await getInstanceProperty(ctx, caller.partnerId, query),
    }),
    updateInstanceProperty: async ({ caller, query, body }) => ({
      result: await updateInstanceProperty(ctx, caller.partnerId, query, body),
    }),
  };
}

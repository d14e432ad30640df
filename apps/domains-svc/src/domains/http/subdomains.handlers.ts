import type { subdomainRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import type { Handlers } from '@platform/http';
import type { DomainsContext } from '../../context';
import { createSubdomain, deleteSubdomain, listSubdomains } from '../domain/subdomains.service';
import { toSubdomain } from './domain.presenter';

const deleted = (hostname: string) => ({ result: { deleted: true, message: `Subdomain ${hostname} was deleted.` } });

/** Subdomains by operationId (paths and validation come from the contract's route table). */
export function subdomainHandlers(ctx: DomainsContext): Handlers<(typeof subdomainRoutes)[number], InternalCaller> {
  const s = ctx.settings;
  return {
    listSubdomains: async ({ caller, params }) => {
      const rows = await listSubdomains(ctx, caller.partnerId, params.domainId);
      return { result: rows.map((row) => toSubdomain(row, s)) };
    },
    createSubdomain: async ({ caller, params, body }) => {
      const row = await createSubdomain(ctx, caller.partnerId, params.domainId, body.subdomain);
      return { result: toSubdomain(row, s) };
    },
    deleteSubdomain: async ({ caller, params }) =>
      deleted(await deleteSubdomain(ctx, caller.partnerId, params.domainId, params.subdomain)),
    // The contract's second reading: the subdomain named in the body.
    deleteSubdomainByBody: async ({ caller, params, body }) =>
      deleted(await deleteSubdomain(ctx, caller.partnerId, params.domainId, body.subdomain)),
  };
}

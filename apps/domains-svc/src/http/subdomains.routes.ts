import type { z } from 'zod';
import type { domainIdParamsSchema, SubdomainBody, subdomainParamsSchema } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import type { RouteHandler } from '@platform/http';
import type { DomainsContext } from '../domain/context';
import { createSubdomain, deleteSubdomain, listSubdomains } from '../domain/subdomains.service';
import { toSubdomain } from './domain.presenter';

const deleted = (hostname: string) => ({ result: { deleted: true, message: `Subdomain ${hostname} was deleted.` } });
const domainIdOf = (params: Record<string, unknown>) => (params as z.output<typeof domainIdParamsSchema>).domainId;

/** Subdomains by operationId (paths and validation come from the contract's route table). */
export function subdomainHandlers(ctx: DomainsContext): Record<string, RouteHandler<InternalCaller>> {
  const s = ctx.settings;
  return {
    listSubdomains: async ({ caller, params }) => {
      const rows = await listSubdomains(ctx, caller.partnerId, domainIdOf(params));
      return { result: rows.map((row) => toSubdomain(row, s)) };
    },
    createSubdomain: async ({ caller, params, body }) => {
      const row = await createSubdomain(ctx, caller.partnerId, domainIdOf(params), (body as SubdomainBody).subdomain);
      return { result: toSubdomain(row, s) };
    },
    deleteSubdomain: async ({ caller, params }) => {
      const { domainId, subdomain } = params as z.output<typeof subdomainParamsSchema>;
      return deleted(await deleteSubdomain(ctx, caller.partnerId, domainId, subdomain));
    },
    // The contract's second reading: the subdomain named in the body.
    deleteSubdomainByBody: async ({ caller, params, body }) =>
      deleted(await deleteSubdomain(ctx, caller.partnerId, domainIdOf(params), (body as SubdomainBody).subdomain)),
  };
}

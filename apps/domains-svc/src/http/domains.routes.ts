import type { z } from 'zod';
import type { CreateDomainBody, domainIdParamsSchema, InviteDomainBody, ListDomainsQuery, UpdateDomainBody } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import type { RouteHandler } from '@platform/http';
import type { DomainsContext } from '../domain/context';
import { createDomain } from '../domain/create-domain.service';
import { activateDomain, deactivateDomain, deleteDomain, inviteDomain } from '../domain/lifecycle.service';
import { getDomain, listDomains } from '../domain/query-domains.service';
import { updateDomain } from '../domain/update-domain.service';
import { toDomain, toDomainCreated, toDomainDetail } from './domain.presenter';

type DomainIdParams = z.output<typeof domainIdParamsSchema>;
const domainIdOf = (params: Record<string, unknown>) => (params as DomainIdParams).domainId;

/**
 * Domains by operationId (paths and validation come from the contract's route table):
 * validated input -> use case -> shape the answer.
 */
export function domainHandlers(ctx: DomainsContext): Record<string, RouteHandler<InternalCaller>> {
  const s = ctx.settings;
  return {
    listDomains: async ({ caller, query }) => {
      const page = await listDomains(ctx, caller.partnerId, query as ListDomainsQuery);
      return { meta: page.meta, result: page.items.map((row) => toDomain(row, s)) };
    },
    createDomain: async ({ caller, body }) => {
      const row = await createDomain(ctx, { partnerId: caller.partnerId, requiredFields: caller.requiredFields }, body as CreateDomainBody);
      return { result: toDomainCreated(row, s) };
    },
    getDomain: async ({ caller, params }) => ({ result: toDomainDetail(await getDomain(ctx, caller.partnerId, domainIdOf(params)), s) }),
    updateDomain: async ({ caller, params, body }) => ({
      result: await updateDomain(ctx, caller.partnerId, domainIdOf(params), body as UpdateDomainBody),
    }),
    deleteDomain: async ({ caller, params }) => {
      await deleteDomain(ctx, caller.partnerId, domainIdOf(params));
      return { result: { deleted: true } };
    },
    deactivateDomain: async ({ caller, params }) => {
      await deactivateDomain(ctx, caller.partnerId, domainIdOf(params));
      return { result: {} };
    },
    activateDomain: async ({ caller, params }) => {
      await activateDomain(ctx, caller.partnerId, domainIdOf(params));
      return { result: {} };
    },
    inviteDomain: async ({ caller, params, body }) => {
      await inviteDomain(ctx, caller.partnerId, domainIdOf(params), body as InviteDomainBody);
      return { result: {} };
    },
  };
}

import type { domainRoutes } from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import type { Handlers } from '@platform/http';
import type { DomainsContext } from '../../context';
import { createDomain } from '../domain/create-domain.service';
import { activateDomain, deactivateDomain, deleteDomain, inviteDomain } from '../domain/lifecycle.service';
import { getDomain, listDomains } from '../domain/query-domains.service';
import { updateDomain } from '../domain/update-domain.service';
import { toDomain, toDomainCreated, toDomainDetail } from './domain.presenter';
import { rememberPartnerName } from '../mail/partner-name';

/**
 * Domains by operationId (paths and validation come from the contract's route table):
 * validated input -> use case -> shape the answer.
 */
export function domainHandlers(ctx: DomainsContext): Handlers<(typeof domainRoutes)[number], InternalCaller> {
  const s = ctx.settings;
  return {
    listDomains: async ({ caller, query }) => {
      const page = await listDomains(ctx, caller.partnerId, query);
      return { meta: page.meta, result: page.items.map((row) => toDomain(row, s)) };
    },
    createDomain: async ({ caller, body }) => {
      await rememberPartnerName(ctx.db, caller);
      const row = await createDomain(
        ctx,
        {
          partnerId: caller.partnerId,
          requiredFields: caller.requiredFields,
          defaults: caller.defaults,
          // A session's call names its user: the domain was made in the portal.
          source: caller.user ? 'PORTAL' : 'API',
        },
        body,
      );
      return { result: toDomainCreated(row, s) };
    },
    getDomain: async ({ caller, params }) => {
      const [row, catalogue] = await Promise.all([
        getDomain(ctx, caller.partnerId, params.domainId),
        ctx.catalogue.products(),
      ]);
      return { result: toDomainDetail(row, s, catalogue) };
    },
    updateDomain: async ({ caller, params, body }) => ({
      result: await updateDomain(ctx, caller.partnerId, params.domainId, body),
    }),
    deleteDomain: async ({ caller, params }) => {
      await deleteDomain(ctx, caller.partnerId, params.domainId);
      return { result: { deleted: true } };
    },
    deactivateDomain: async ({ caller, params }) => {
      await deactivateDomain(ctx, caller.partnerId, params.domainId);
      return { result: {} };
    },
    activateDomain: async ({ caller, params }) => {
      await activateDomain(ctx, caller.partnerId, params.domainId);
      return { result: {} };
    },
    inviteDomain: async ({ caller, params, body }) => {
      await rememberPartnerName(ctx.db, caller);
      await inviteDomain(ctx, caller.partnerId, params.domainId, body);
      return { result: {} };
    },
  };
}

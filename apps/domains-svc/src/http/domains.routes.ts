import { Router } from 'express';
import {
  createDomainBodySchema,
  domainIdParamsSchema,
  inviteDomainBodySchema,
  listDomainsQuerySchema,
  updateDomainBodySchema,
} from '@platform/contracts';
import { callerOf } from '@platform/auth';
import { parseRequest } from '@platform/http';
import type { DomainsContext } from '../domain/context';
import { createDomain } from '../domain/create-domain.service';
import { activateDomain, deactivateDomain, deleteDomain, inviteDomain } from '../domain/lifecycle.service';
import { getDomain, listDomains } from '../domain/query-domains.service';
import { updateDomain } from '../domain/update-domain.service';
import { toDomain, toDomainCreated, toDomainDetail } from './domain.presenter';

/** Domains: parse with the contract's schemas -> use case -> shape the answer. */
export function domainsRouter(ctx: DomainsContext): Router {
  const router = Router();
  const s = ctx.settings;

  router.get('/portal/domains', async (req, res) => {
    const { query } = parseRequest(req, { query: listDomainsQuerySchema });
    const page = await listDomains(ctx, callerOf(res).partnerId, query);
    res.json({ meta: page.meta, result: page.items.map((row) => toDomain(row, s)) });
  });

  router.post('/portal/domains', async (req, res) => {
    const { body } = parseRequest(req, { body: createDomainBodySchema });
    const caller = callerOf(res);
    const row = await createDomain(ctx, { partnerId: caller.partnerId, requiredFields: caller.requiredFields }, body);
    res.json({ result: toDomainCreated(row, s) });
  });

  router.get('/portal/domains/:domainId', async (req, res) => {
    const { params } = parseRequest(req, { params: domainIdParamsSchema });
    const row = await getDomain(ctx, callerOf(res).partnerId, params.domainId);
    res.json({ result: toDomainDetail(row, s) });
  });

  router.put('/portal/domains/:domainId', async (req, res) => {
    const { params, body } = parseRequest(req, { params: domainIdParamsSchema, body: updateDomainBodySchema });
    res.json({ result: await updateDomain(ctx, callerOf(res).partnerId, params.domainId, body) });
  });

  router.delete('/portal/domains/:domainId', async (req, res) => {
    const { params } = parseRequest(req, { params: domainIdParamsSchema });
    await deleteDomain(ctx, callerOf(res).partnerId, params.domainId);
    res.json({ result: { deleted: true } });
  });

  router.post('/portal/domains/:domainId/deactivate', async (req, res) => {
    const { params } = parseRequest(req, { params: domainIdParamsSchema });
    await deactivateDomain(ctx, callerOf(res).partnerId, params.domainId);
    res.json({ result: {} });
  });

  router.post('/portal/domains/:domainId/activate', async (req, res) => {
    const { params } = parseRequest(req, { params: domainIdParamsSchema });
    await activateDomain(ctx, callerOf(res).partnerId, params.domainId);
    res.json({ result: {} });
  });

  router.post('/portal/domains/:domainId/invite', async (req, res) => {
    const { params, body } = parseRequest(req, { params: domainIdParamsSchema, body: inviteDomainBodySchema });
    await inviteDomain(ctx, callerOf(res).partnerId, params.domainId, body);
    res.json({ result: {} });
  });

  return router;
}

import { Router } from 'express';
import { domainIdParamsSchema, subdomainBodySchema, subdomainParamsSchema } from '@platform/contracts';
import { callerOf } from '@platform/auth';
import { parseRequest } from '@platform/http';
import type { DomainsContext } from '../domain/context';
import { createSubdomain, deleteSubdomain, listSubdomains } from '../domain/subdomains.service';
import { toSubdomain } from './domain.presenter';

const deleted = (hostname: string) => ({ result: { deleted: true, message: `Subdomain ${hostname} was deleted.` } });

export function subdomainsRouter(ctx: DomainsContext): Router {
  const router = Router();
  const s = ctx.settings;

  router.get('/portal/domains/:domainId/subdomains', async (req, res) => {
    const { params } = parseRequest(req, { params: domainIdParamsSchema });
    const rows = await listSubdomains(ctx, callerOf(res).partnerId, params.domainId);
    res.json({ result: rows.map((row) => toSubdomain(row, s)) });
  });

  router.post('/portal/domains/:domainId/subdomains', async (req, res) => {
    const { params, body } = parseRequest(req, { params: domainIdParamsSchema, body: subdomainBodySchema });
    const row = await createSubdomain(ctx, callerOf(res).partnerId, params.domainId, body.subdomain);
    res.json({ result: toSubdomain(row, s) });
  });

  router.delete('/portal/domains/:domainId/subdomains/:subdomain', async (req, res) => {
    const { params } = parseRequest(req, { params: subdomainParamsSchema });
    res.json(deleted(await deleteSubdomain(ctx, callerOf(res).partnerId, params.domainId, params.subdomain)));
  });

  // The contract's second reading: the subdomain named in the body.
  router.delete('/portal/domains/:domainId/subdomains', async (req, res) => {
    const { params, body } = parseRequest(req, { params: domainIdParamsSchema, body: subdomainBodySchema });
    res.json(deleted(await deleteSubdomain(ctx, callerOf(res).partnerId, params.domainId, body.subdomain)));
  });

  return router;
}

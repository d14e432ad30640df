import { randomUUID } from 'node:crypto';
import { isUuid, type CreateWebhookBody, type UpdateWebhookBody } from '@platform/contracts';
import { listPage, notFound, validationError } from '@platform/http';
import { targetProblem } from '@platform/outbound';
import * as endpoints from '../db/endpoints.repository';
import type { WebhooksContext } from './context';
import { newSigningSecret } from './secrets';

/** The partner's endpoint, or 404 (another partner's id, a deleted one, or not an id at all). */
export async function findOwnEndpoint(ctx: WebhooksContext, partnerId: string, endpointId: string) {
  const row = isUuid(endpointId)
    ? await endpoints.findEndpoint(ctx.db, partnerId, endpointId.toLowerCase())
    : undefined;
  if (!row) throw notFound('webhook endpoint');
  return row;
}

/** 400 naming body.url when the URL may not be a target (scheme, https-only, refused address ranges). */
async function assertTarget(ctx: WebhooksContext, url: string) {
  const problem = await targetProblem(url, ctx.targets);
  if (problem) throw validationError([{ path: 'body.url', message: problem }]);
}

export async function createEndpoint(ctx: WebhooksContext, partnerId: string, body: CreateWebhookBody) {
  await assertTarget(ctx, body.url);
  const secret = newSigningSecret();
  const row = await endpoints.insertEndpoint(ctx.db, {
    id: randomUUID(),
    partner_id: partnerId,
    url: body.url,
    description: body.description ?? '',
    events: body.events ?? null,
    secret: ctx.secrets.seal(secret),
  });
  return { row, secret };
}

export const listEndpoints = (ctx: WebhooksContext, partnerId: string, query: { page: number; limit: number }) =>
  listPage(query, (window) => endpoints.listEndpoints(ctx.db, partnerId, window));

export async function updateEndpoint(
  ctx: WebhooksContext,
  partnerId: string,
  endpointId: string,
  body: UpdateWebhookBody,
) {
  const current = await findOwnEndpoint(ctx, partnerId, endpointId);
  if (body.url !== undefined) await assertTarget(ctx, body.url);
  const enabling = body.enabled === true && !current.enabled;
  const row = await endpoints.updateEndpoint(ctx.db, partnerId, current.id, {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.events !== undefined ? { events: body.events } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.enabled === false && current.enabled ? { enabled: false, disabled_reason: 'manual' as const } : {}),
    // Re-enabled: its failure history starts again, or the 5-day rule would disable it at once.
    ...(enabling ? { enabled: true, disabled_reason: null, failing_since: null } : {}),
  });
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export async function deleteEndpoint(ctx: WebhooksContext, partnerId: string, endpointId: string) {
  const current = await findOwnEndpoint(ctx, partnerId, endpointId);
  if (!(await endpoints.deleteEndpoint(ctx.db, partnerId, current.id))) throw notFound('webhook endpoint');
}

/** A new secret; the current one keeps signing beside it for `graceSeconds` (default from settings). */
export async function rotateSecret(
  ctx: WebhooksContext,
  partnerId: string,
  endpointId: string,
  graceSeconds: number | undefined,
) {
  const current = await findOwnEndpoint(ctx, partnerId, endpointId);
  const graceMs = graceSeconds === undefined ? ctx.rotationGraceMs : graceSeconds * 1_000;
  const secret = newSigningSecret();
  const row = await endpoints.updateEndpoint(ctx.db, partnerId, current.id, {
    secret: ctx.secrets.seal(secret),
    previous_secret: graceMs > 0 ? current.secret : null,
    previous_secret_expires_at: graceMs > 0 ? new Date(Date.now() + graceMs) : null,
  });
  if (!row) throw notFound('webhook endpoint');
  return { row, secret };
}

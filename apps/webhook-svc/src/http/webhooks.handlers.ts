import {
  EVENT_REGISTRY,
  eventBodyJsonSchema,
  exampleEventPayload,
  PUBLIC_EVENT_NAMES,
  type webhookRoutes,
} from '@platform/contracts';
import type { InternalCaller } from '@platform/auth';
import { reply, type Handlers } from '@platform/http';
import type { WebhooksContext } from '../domain/context';
import { getDelivery, listDeliveries, recoverDeliveries, retryDelivery, sendTest } from '../domain/deliveries.service';
import {
  createEndpoint,
  deleteEndpoint,
  findOwnEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../domain/endpoints.service';
import { toDelivery, toEndpoint } from './webhook.presenter';

/** The catalogue partners subscribe from: every public event with its description, its body's schema and a generated example. */
const EVENT_TYPES = PUBLIC_EVENT_NAMES.map((name) => ({
  name,
  description: EVENT_REGISTRY[name].description,
  example: exampleEventPayload(name),
  schema: eventBodyJsonSchema(name),
}));

/** Webhook endpoints and their delivery log, by operationId. */
export function webhookHandlers(ctx: WebhooksContext): Handlers<(typeof webhookRoutes)[number], InternalCaller> {
  return {
    listWebhookEndpoints: async ({ caller, query }) => {
      const page = await listEndpoints(ctx, caller.partnerId, query);
      return { meta: page.meta, result: page.items.map(toEndpoint) };
    },
    createWebhookEndpoint: async ({ caller, body }) => {
      const { row, secret } = await createEndpoint(ctx, caller.partnerId, body);
      return reply(201, { result: { ...toEndpoint(row), secret } });
    },
    listWebhookEventTypes: () => ({ result: EVENT_TYPES }),
    getWebhookEndpoint: async ({ caller, params }) => ({
      result: toEndpoint(await findOwnEndpoint(ctx, caller.partnerId, params.endpointId)),
    }),
    updateWebhookEndpoint: async ({ caller, params, body }) => ({
      result: toEndpoint(await updateEndpoint(ctx, caller.partnerId, params.endpointId, body)),
    }),
    deleteWebhookEndpoint: async ({ caller, params }) => {
      await deleteEndpoint(ctx, caller.partnerId, params.endpointId);
      return { result: { deleted: true } };
    },
    rotateWebhookSecret: async ({ caller, params, body }) => {
      const { row, secret } = await rotateSecret(
        ctx,
        caller.partnerId,
        params.endpointId,
        body.previous_secret_expires_in,
      );
      return { result: { ...toEndpoint(row), secret } };
    },
    sendWebhookTest: async ({ caller, params, body }) => {
      const { row, attempts } = await sendTest(ctx, caller.partnerId, params.endpointId, body.event);
      return reply(202, { result: toDelivery(row, attempts) });
    },
    listWebhookDeliveries: async ({ caller, params, query }) => {
      const page = await listDeliveries(ctx, caller.partnerId, params.endpointId, query);
      return { meta: page.meta, result: page.items.map(({ row, attempts }) => toDelivery(row, attempts)) };
    },
    getWebhookDelivery: async ({ caller, params }) => {
      const { row, attempts } = await getDelivery(ctx, caller.partnerId, params.endpointId, params.deliveryId);
      return { result: toDelivery(row, attempts) };
    },
    retryWebhookDelivery: async ({ caller, params }) => {
      const { row, attempts } = await retryDelivery(ctx, caller.partnerId, params.endpointId, params.deliveryId);
      return reply(202, { result: toDelivery(row, attempts) });
    },
    recoverWebhookDeliveries: async ({ caller, params, body }) => {
      const recovered = await recoverDeliveries(ctx, caller.partnerId, params.endpointId, body.since, body.until);
      return reply(202, { result: { recovered } });
    },
  };
}

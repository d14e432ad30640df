import { z } from 'zod';
import { deletedSchema, pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute, type RouteSpec } from '../routes';
import {
  createWebhookBodySchema,
  deliveryIdParamsSchema,
  listDeliveriesQuerySchema,
  listWebhooksQuerySchema,
  recoverWebhookBodySchema,
  rotateWebhookSecretBodySchema,
  updateWebhookBodySchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
  webhookEventTypeSchema,
  webhookIdParamsSchema,
  webhookTestBodySchema,
} from './webhook.schema';

const read = { service: 'webhooks', permission: 'webhooks:read', tag: 'Webhooks' } as const;
const write = { service: 'webhooks', permission: 'webhooks:write', tag: 'Webhooks' } as const;
const byId: ErrorCode[] = ['RESOURCE.NOT_FOUND'];
const withBody = BODY_ERRORS;

const SIGNING = `Each delivery is a POST of the event's JSON body \`{event, params, entity?}\`, signed the Standard Webhooks way:
\`webhook-id\` (the delivery id, the same on every attempt), \`webhook-timestamp\` (Unix seconds) and
\`webhook-signature\`: \`v1,<base64 HMAC-SHA256 of "id.timestamp.body">\` with the secret's base64 part as key
(two space-separated signatures while a rotated-out secret still signs). Any 2xx within 15 s is success;
redirects are not followed; 410 disables the endpoint. Failures are retried after about 5 s, 5 min, 30 min,
2 h, 5 h, 10 h and 10 h (Retry-After is honoured on 429 and 503), then the delivery is \`failed\`.`;

/** Webhook endpoints, their deliveries and the event catalogue (ours: the spec leaves registration open). */
export const webhookRoutes = [
  defineRoute({
    ...read,
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/portal/webhooks',
    summary: 'List webhook endpoints',
    description: 'Newest first.',
    query: listWebhooksQuerySchema,
    response: pageOf(webhookEndpointSchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...write,
    operationId: 'createWebhookEndpoint',
    audit: 'webhook_endpoint.created',
    method: 'post',
    path: '/portal/webhooks',
    summary: 'Register a webhook endpoint',
    description: `Answers the endpoint with its signing \`secret\`, shown only here and on rotation.\n\n${SIGNING}`,
    body: createWebhookBodySchema,
    response: resultOf(webhookEndpointWithSecretSchema),
    status: 201,
    errors: withBody,
  }),
  defineRoute({
    ...read,
    operationId: 'listWebhookEventTypes',
    method: 'get',
    path: '/portal/webhooks/event-types',
    summary: 'Every event an endpoint can receive, with an example body',
    response: resultOf(z.array(webhookEventTypeSchema)),
    errors: [],
  }),
  defineRoute({
    ...read,
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: '/portal/webhooks/{endpointId}',
    summary: 'Get a webhook endpoint',
    params: webhookIdParamsSchema,
    response: resultOf(webhookEndpointSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'updateWebhookEndpoint',
    audit: 'webhook_endpoint.updated',
    method: 'put',
    path: '/portal/webhooks/{endpointId}',
    summary: 'Change the URL, events, description or enabled flag of an endpoint',
    description:
      'Only the fields sent change. `enabled: true` re-enables an endpoint that was disabled (by you, a 410 or 5 days of failures).',
    params: webhookIdParamsSchema,
    body: updateWebhookBodySchema,
    response: resultOf(webhookEndpointSchema),
    errors: [...withBody, ...byId],
  }),
  defineRoute({
    ...write,
    operationId: 'deleteWebhookEndpoint',
    audit: 'webhook_endpoint.deleted',
    method: 'delete',
    path: '/portal/webhooks/{endpointId}',
    summary: 'Delete a webhook endpoint and its delivery log',
    params: webhookIdParamsSchema,
    response: resultOf(deletedSchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'rotateWebhookSecret',
    audit: 'webhook_endpoint.secret_rotated',
    method: 'post',
    path: '/portal/webhooks/{endpointId}/rotate-secret',
    summary: 'Rotate the signing secret',
    description:
      'Answers the endpoint with its new `secret`. The old one keeps signing beside it (two signatures per delivery) for 24 h, or `previous_secret_expires_in` seconds.',
    params: webhookIdParamsSchema,
    body: rotateWebhookSecretBodySchema,
    bodyRequired: false,
    response: resultOf(webhookEndpointWithSecretSchema),
    errors: [...withBody, ...byId],
  }),
  defineRoute({
    ...write,
    operationId: 'sendWebhookTest',
    method: 'post',
    path: '/portal/webhooks/{endpointId}/test',
    summary: 'Send an example event to the endpoint',
    description:
      "Queues a delivery of an event type's example body, signed and logged like any other; follow it in the delivery log.",
    params: webhookIdParamsSchema,
    body: webhookTestBodySchema,
    bodyRequired: false,
    response: resultOf(webhookDeliverySchema),
    status: 202,
    errors: [...withBody, ...byId],
  }),
  defineRoute({
    ...read,
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/portal/webhooks/{endpointId}/deliveries',
    summary: "An endpoint's delivery log, with every attempt",
    description: 'Newest first; kept 30 days.',
    params: webhookIdParamsSchema,
    query: listDeliveriesQuerySchema,
    response: pageOf(webhookDeliverySchema),
    errors: ['VALIDATION.INVALID', ...byId],
  }),
  defineRoute({
    ...read,
    operationId: 'getWebhookDelivery',
    method: 'get',
    path: '/portal/webhooks/{endpointId}/deliveries/{deliveryId}',
    summary: 'One delivery with every attempt',
    params: deliveryIdParamsSchema,
    response: resultOf(webhookDeliverySchema),
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'retryWebhookDelivery',
    method: 'post',
    path: '/portal/webhooks/{endpointId}/deliveries/{deliveryId}/retry',
    summary: 'Send a delivery again now',
    description:
      'One more attempt with the same webhook-id and body; if it fails the delivery is failed again (no further automatic retries).',
    params: deliveryIdParamsSchema,
    response: resultOf(webhookDeliverySchema),
    status: 202,
    errors: byId,
  }),
  defineRoute({
    ...write,
    operationId: 'recoverWebhookDeliveries',
    method: 'post',
    path: '/portal/webhooks/{endpointId}/recover',
    summary: 'Send every failed delivery since a time again',
    description: 'Each failed delivery created in [since, until) gets one more attempt, as a manual retry does.',
    params: webhookIdParamsSchema,
    body: recoverWebhookBodySchema,
    response: resultOf(z.object({ recovered: z.number().int() })),
    status: 202,
    errors: [...withBody, ...byId],
  }),
] satisfies RouteSpec[];

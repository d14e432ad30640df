import { pageOf, resultOf } from '../common';
import type { ErrorCode } from '../errors';
import { BODY_ERRORS, defineRoute } from '../routes';
import {
  apiKeyIdParamsSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  createApiKeyBodySchema,
  listApiKeysQuerySchema,
  rollApiKeyBodySchema,
} from './identity.schema';

const keys = { service: 'gateway', permission: 'api_keys:write', userOnly: true, tag: 'API keys' } as const;
const byId: ErrorCode[] = ['RESOURCE.NOT_FOUND'];

/** The partner's API keys, managed in the portal (userOnly: an API key gets 403). */
export const apiKeyRoutes = [
  defineRoute({
    ...keys,
    operationId: 'listApiKeys',
    method: 'get',
    path: '/portal/api-keys',
    summary: 'List API keys (never their secrets)',
    description: 'Newest first, revoked ones included.',
    query: listApiKeysQuerySchema,
    response: pageOf(apiKeySchema),
    errors: ['VALIDATION.INVALID'],
  }),
  defineRoute({
    ...keys,
    operationId: 'createApiKey',
    method: 'post',
    path: '/portal/api-keys',
    summary: 'Create an API key; its secret is in this answer only',
    body: createApiKeyBodySchema,
    response: resultOf(apiKeyWithSecretSchema),
    status: 201,
    errors: BODY_ERRORS,
  }),
  defineRoute({
    ...keys,
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/portal/api-keys/{keyId}',
    summary: 'Revoke an API key (refused from the next request on, on every gateway)',
    params: apiKeyIdParamsSchema,
    response: resultOf(apiKeySchema),
    errors: byId,
  }),
  defineRoute({
    ...keys,
    operationId: 'rollApiKey',
    method: 'post',
    path: '/portal/api-keys/{keyId}/roll',
    summary: 'Roll an API key: a new key with the same settings; the old one stops after the overlap',
    description: 'overlap_hours 0 to 168 (7 days). The new key is in this answer only.',
    params: apiKeyIdParamsSchema,
    body: rollApiKeyBodySchema,
    response: resultOf(apiKeyWithSecretSchema),
    status: 201,
    errors: [...BODY_ERRORS, ...byId, 'API_KEY.INVALID_STATE'],
  }),
];

import { z } from 'zod';
import { queryWireSchemas } from './common';
import { ERROR_CATALOGUE, errorResponseSchema, type ErrorCode } from './errors';
import { isInternalRoute, isPublicRoute, isSignInRoute, takesIdempotencyKey, type RouteSpec } from './routes';

type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * Converts zod schemas to JSON Schema for one document: named schemas (`.meta({ id })`) that zod
 * puts in a local `$defs` move to components.schemas, and their refs are rewritten to point there.
 */
function schemaConverter() {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      // Query helpers parse text but are documented as what they mean (integer, boolean).
      override: (ctx) => {
        const wire = queryWireSchemas.get(ctx.zodSchema);
        if (!wire) return;
        const { description } = ctx.jsonSchema;
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as JsonSchema)[k];
        Object.assign(ctx.jsonSchema, wire, description === undefined ? {} : { description });
      },
    }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    // The input and output shapes of a schema may differ (defaults): keep both under distinct names.
    const names = new Map<string, string>();
    for (const [name, def] of Object.entries(defs)) {
      const taken = components[name] !== undefined && JSON.stringify(components[name]) !== JSON.stringify(def);
      names.set(name, taken ? `${name}${io === 'input' ? 'Input' : 'Output'}` : name);
    }
    const relink = <T>(value: T): T =>
      JSON.parse(
        JSON.stringify(value).replace(
          /"#\/\$defs\/([^"]+)"/g,
          (_, name: string) => `"${COMPONENT_REF}${names.get(name) ?? name}"`,
        ),
      );
    for (const [name, def] of Object.entries(defs)) components[names.get(name)!] = relink(def);
    return relink(json);
  };
  return { toSchema, components };
}

const IDEMPOTENCY_ERRORS = ['IDEMPOTENCY.KEY_REUSED', 'IDEMPOTENCY.IN_PROGRESS'] as const;

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request within 24 hours replays the first answer ' +
    '(header Idempotent-Replayed: true) instead of running it again; with another request, 409 IDEMPOTENCY.KEY_REUSED; ' +
    'while the first is still running, 409 IDEMPOTENCY.IN_PROGRESS. Keys are per partner; answers with status 5xx are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

/** Who may call: nobody in particular (public, sign-in), a portal session only (userOnly), or a key or a session. */
function securityOf(r: RouteSpec) {
  if (isPublicRoute(r) || isSignInRoute(r)) return { security: [] };
  if (r.access === 'owner') return { security: [{ ownerSessionCookie: [] }], 'x-owner-role': r.ownerRole };
  return {
    security: r.userOnly ? [{ sessionCookie: [] }] : [{ bearerAuth: [] }, { sessionCookie: [] }],
    'x-permission': r.permission,
    ...(r.userOnly ? { 'x-user-only': true } : {}),
    ...(r.userPermission ? { 'x-user-permission': r.userPermission } : {}),
  };
}

type ToSchema = ReturnType<typeof schemaConverter>['toSchema'];

/** Path and query parameters, and the Idempotency-Key header of a write. */
function parametersOf(r: RouteSpec, toSchema: ToSchema): unknown[] {
  const parameters: unknown[] = [];
  for (const [name, s] of Object.entries(r.params?.shape ?? {})) {
    parameters.push({ name, in: 'path', required: true, schema: toSchema(s as z.ZodType, 'input') });
  }
  for (const [name, s] of Object.entries(r.query?.shape ?? {})) {
    const schema = s as z.ZodType;
    const json = toSchema(schema, 'input');
    parameters.push({
      name,
      in: 'query',
      required: !schema.safeParse(undefined).success,
      schema: json,
      ...(json.type === 'array' ? { style: 'form', explode: true } : {}),
      ...(typeof json.description === 'string' ? { description: json.description } : {}),
    });
  }
  if (takesIdempotencyKey(r)) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return parameters;
}

/** The success answer, and one ErrorResponse per status the route's errors (and a write's idempotency errors) answer with. */
function responsesOf(r: RouteSpec, toSchema: ToSchema): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(r.status ?? 200)]:
      r.status === 204
        ? { description: 'No Content' }
        : r.download
          ? {
              description: 'A file',
              content: Object.fromEntries(
                r.download.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
              ),
            }
          : {
              description: r.status === 201 ? 'Created' : r.status === 202 ? 'Accepted' : 'Success',
              content: { 'application/json': { schema: toSchema(r.response, 'output') } },
            },
  };
  for (const code of takesIdempotencyKey(r) ? [...r.errors, ...IDEMPOTENCY_ERRORS] : r.errors) {
    const status = String(ERROR_CATALOGUE[code].status);
    const existing = responses[status] as { description: string } | undefined;
    const description = existing ? `${existing.description}; ${code}` : code;
    responses[status] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    };
  }
  return responses;
}

function operationOf(r: RouteSpec, toSchema: ToSchema) {
  // In this order (parameters, answers, body): a schema's name in components is taken first come.
  const parameters = parametersOf(r, toSchema);
  const responses = responsesOf(r, toSchema);
  const requestBody = r.body
    ? {
        required: r.bodyRequired ?? true,
        content: { [r.multipart ? 'multipart/form-data' : 'application/json']: { schema: toSchema(r.body, 'input') } },
      }
    : undefined;
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: [r.tag],
    ...securityOf(r),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the route table and its zod schemas; calls between services (/internal) are left out. */
export function buildOpenApi(routes: RouteSpec[], info: { title: string; version: string; description?: string }) {
  const { toSchema, components } = schemaConverter();
  // Registers ErrorResponse (and Error) in components; every error answer refers to it.
  toSchema(errorResponseSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes.filter((route) => !isInternalRoute(route))) {
    paths[r.path] ??= {};
    paths[r.path][r.method] = operationOf(r, toSchema);
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your partner API key' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'pp_session',
          description: 'A portal session (POST /portal/auth/sessions); writes also send X-CSRF-Token',
        },
        ownerSessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'pp_owner_session',
          description: 'An owner console session (POST /portal/owner/sessions); writes also send X-CSRF-Token',
        },
      },
      parameters: { IdempotencyKey: idempotencyKeyParameter },
      schemas: components,
    },
    'x-error-catalogue': Object.entries(ERROR_CATALOGUE).map(([code, e]) => ({ code, ...e })),
  };
}

const PARTNER_API_DESCRIPTION = `Partner API for managing domains, subdomains, subscriptions, merchants, consent records and webhooks.

Authenticate every /portal request with \`Authorization: Bearer <API_KEY>\`. Keys may be limited to one IP
address, carry an expiry and a set of permissions (a missing permission answers 403 with \`data.required\`).
Every error answers \`{"error": {"code", "ns", "message", "status", "data"?}}\`; the full catalogue is in
\`x-error-catalogue\`. Requests are rate limited per key (429 with \`Retry-After\` and \`RateLimit\` headers).`;

/** Errors the gateway itself may answer on any operation, on top of each route's own. */
const GATEWAY_ERRORS: ErrorCode[] = ['AUTH.API_KEY', 'AUTH.FORBIDDEN', 'RATE.LIMITED', 'SERVICE.UNAVAILABLE'];
const BODY_ERRORS: ErrorCode[] = ['VALIDATION.MALFORMED_JSON', 'REQUEST.TOO_LARGE', 'REQUEST.UNSUPPORTED_MEDIA_TYPE'];

/**
 * The document the gateway serves at /openapi.json: the route table with the errors the gateway
 * adds to every operation. libs/client generates its types from it (npm run client:generate).
 */
export function partnerApiDocument(routes: RouteSpec[]) {
  const withGatewayErrors = routes.map((r) => ({
    ...r,
    errors: [...new Set([...r.errors, ...GATEWAY_ERRORS, ...(r.body ? BODY_ERRORS : [])])],
  }));
  return buildOpenApi(withGatewayErrors, {
    title: 'Partner Domain Management API',
    version: '1.0',
    description: PARTNER_API_DESCRIPTION,
  });
}

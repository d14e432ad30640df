import {
  billingInternalRoutes,
  buildOpenApi,
  domainInternalRoutes,
  isInternalRoute,
  isPublicRoute,
  merchantInternalRoutes,
  ROUTES,
  type RouteSpec,
} from '../src';

const INFO = { title: 'test', version: '1.0' };

/** Follows a local JSON pointer like #/components/schemas/Domain. */
const resolve = (doc: unknown, ref: string) =>
  ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      doc,
    );

describe('OpenAPI document', () => {
  it('when generated from the route table, then every route is there and every $ref points at a schema or parameter in the document', () => {
    const doc = buildOpenApi(ROUTES, INFO);
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) expect((doc.paths[route.path] as Record<string, unknown>)[route.method]).toBeDefined();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas|parameters)\//);
      const target = resolve(doc, ref) as Record<string, unknown> | undefined;
      expect({ ref, resolved: target !== undefined && target.$ref === undefined }).toEqual({ ref, resolved: true });
    }
  });

  it('when an operation lists errors, then each points at the shared ErrorResponse schema', () => {
    const doc = buildOpenApi(ROUTES, INFO);
    const op = (
      doc.paths['/portal/domains/{domainId}'] as Record<
        string,
        { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> }
      >
    ).get;
    expect(op.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
    expect(doc.components.schemas.ErrorResponse).toMatchObject({ type: 'object', required: ['error'] });
  });
});

describe('OpenAPI and calls between services', () => {
  const internal: RouteSpec[] = [...billingInternalRoutes, ...merchantInternalRoutes, ...domainInternalRoutes];

  it('when the route table is compiled for the gateway, then it holds no call between services, and every internal route is under /internal/', () => {
    expect(ROUTES.filter(isInternalRoute).map((r) => r.path)).toEqual([]);
    expect(internal.length).toBeGreaterThan(0);
    for (const route of internal) expect(route.path).toMatch(/^\/internal\//);
  });

  it('when the document is built from routes that include internal ones, then no /internal path is published', () => {
    const doc = buildOpenApi([...ROUTES, ...internal], INFO);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/internal'))).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(Object.keys(buildOpenApi(ROUTES, INFO).paths));
  });
});

type Operation = {
  parameters: { name?: string; $ref?: string; schema?: Record<string, unknown> }[];
  responses: Record<string, { description: string }>;
};
const operation = (doc: ReturnType<typeof buildOpenApi>, path: string, method: string) =>
  (doc.paths[path] as Record<string, Operation>)[method];

describe('OpenAPI parameter types', () => {
  it('when a query parameter is an integer or a boolean, then the document types it so (not a string with a pattern)', () => {
    const params = operation(buildOpenApi(ROUTES, INFO), '/portal/domains', 'get').parameters;
    const schemaOf = (name: string) => params.find((p) => p.name === name)?.schema;
    expect(schemaOf('page')).toMatchObject({ type: 'integer', minimum: 1 });
    expect(schemaOf('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    for (const name of ['page', 'limit', 'widget_version', 'instance_id'])
      expect(schemaOf(name)).toEqual(expect.objectContaining({ type: 'integer' }));
    for (const name of ['page', 'limit', 'widget_version', 'instance_id'])
      expect(schemaOf(name)).not.toHaveProperty('pattern');
    for (const flag of ['is_active', 'has_scripts', 'has_subscription'])
      expect(schemaOf(flag)).toEqual(expect.objectContaining({ type: 'boolean' }));
  });

  it("when a partner operation writes (a service's or the gateway's), then it documents the Idempotency-Key header and its 409 answers; reads, public operations and the session's own sign-in operations do not", () => {
    const doc = buildOpenApi(ROUTES, INFO);
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    const sessionOwn = [
      'createSignInLink',
      'createSession',
      'deleteSession',
      'verifySessionTotp',
      'createOwnerSignInLink',
      'createOwnerSession',
      'deleteOwnerSession',
    ];
    const gatewayKeyed = ROUTES.filter((r) => r.service === 'gateway' && r.method !== 'get' && !isPublicRoute(r)).map(
      (r) => r.operationId,
    );
    expect(gatewayKeyed.filter((id) => !sessionOwn.includes(id)).sort()).toEqual(
      [
        'confirmTotpEnrolment',
        'createApiKey',
        'createUser',
        'deleteUser',
        'disableTotp',
        'reinviteUser',
        'revokeApiKey',
        'rollApiKey',
        'startTotpEnrolment',
        'updateSettings',
        'updateUser',
        'inviteAccessUser',
        'provisionAccessUser',
        'updateAccessUser',
        'deleteAccessUser',
        // The owner console's writes: keyed per partner, the owner their sender (owner:<id>).
        'updateOwnerProperty',
        'updateOwnerCompany',
        'startOwnerScan',
        'inviteOwnerUser',
        'updateOwnerUser',
        'deleteOwnerUser',
        'updateOwnerRequest',
      ].sort(),
    );
    for (const route of ROUTES) {
      const op = operation(doc, route.path, route.method);
      if (route.method === 'get' || isPublicRoute(route) || sessionOwn.includes(route.operationId)) {
        expect(op.parameters).not.toContainEqual(ref);
      } else {
        expect(op.parameters).toContainEqual(ref);
        expect(op.responses['409'].description).toContain('IDEMPOTENCY.KEY_REUSED');
        expect(op.responses['409'].description).toContain('IDEMPOTENCY.IN_PROGRESS');
      }
    }
    expect((doc.components as Record<string, Record<string, unknown>>).parameters.IdempotencyKey).toMatchObject({
      in: 'header',
      name: 'Idempotency-Key',
    });
  });
});

import { buildOpenApi, ROUTES } from '../src';

const INFO = { title: 'test', version: '1.0' };

/** Follows a local JSON pointer like #/components/schemas/Domain. */
const resolve = (doc: unknown, ref: string) =>
  ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);

describe('OpenAPI document', () => {
  it('when generated from the route table, then every route is there and every $ref points at a schema in the document', () => {
    const doc = buildOpenApi(ROUTES, INFO);
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) expect((doc.paths[route.path] as Record<string, unknown>)[route.method]).toBeDefined();
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/components/schemas/')).toBe(true);
      const target = resolve(doc, ref) as Record<string, unknown> | undefined;
      expect({ ref, resolved: target !== undefined && target.$ref === undefined }).toEqual({ ref, resolved: true });
    }
  });

  it('when an operation lists errors, then each points at the shared ErrorResponse schema', () => {
    const doc = buildOpenApi(ROUTES, INFO);
    const op = (doc.paths['/portal/domains/{domainId}'] as Record<string, { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> }>).get;
    expect(op.responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(doc.components.schemas.ErrorResponse).toMatchObject({ type: 'object', required: ['error'] });
  });
});

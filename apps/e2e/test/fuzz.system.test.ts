import fc from 'fast-check';
import { startSystem, type Partner, type System } from './support/system';

/** Values of the wrong JSON type for a field of the given kind, so every generated body is invalid. */
const wrongFor = (kind: 'string' | 'boolean' | 'enum' | 'array') => {
  const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }));
  switch (kind) {
    case 'string':
      return notString;
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer({ min: 2 }), fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 }));
    case 'enum':
      return fc.oneof(notString, fc.string().filter((s) => !/^[A-Z_]+$/.test(s)));
    case 'array':
      return fc.oneof(fc.string(), fc.integer(), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }));
  }
};

const CREATE_FIELDS = {
  domain: 'string', company_name: 'string', account_email: 'string', has_scripts: 'boolean', has_dsar: 'boolean',
  display_dpo: 'boolean', subdomains: 'array', default_notice_type: 'enum', action: 'enum', company_setup: 'boolean',
} as const;
const UPDATE_FIELDS = {
  company_name: 'string', company_trade_name: 'string', country: 'string', primary_color: 'string', has_scripts: 'boolean',
  has_docs: 'boolean', display_company: 'boolean', default_notice_type: 'enum',
} as const;

/** An object with at least one known field of the wrong type, plus random extra keys. */
const invalidObject = (fields: Record<string, 'string' | 'boolean' | 'enum' | 'array'>) =>
  fc
    .record(Object.fromEntries(Object.entries(fields).map(([k, kind]) => [k, wrongFor(kind)])), { requiredKeys: [] })
    .filter((o) => Object.keys(o).length > 0)
    .chain((o) => fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }).map((extra) => ({ ...extra, ...o })));

/** Bodies that are not an acceptable JSON object at all: garbage text, scalars, arrays, deep nesting. */
const notAnObject = fc.oneof(
  fc.string().map((s) => ({ raw: `{${s}` })),
  fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => ({ raw: JSON.stringify(v) })),
  fc.constant({ raw: '{"a":'.repeat(200) }),
);

const body = (fields: Record<string, 'string' | 'boolean' | 'enum' | 'array'>) =>
  fc.oneof(invalidObject(fields).map((o) => ({ raw: JSON.stringify(o) })), notAnObject);

const QUERY_INVALID = {
  page: fc.oneof(fc.constant('0'), fc.string().filter((s) => !/^\d+$/.test(s))),
  limit: fc.oneof(fc.integer({ min: 101, max: 10 ** 9 }).map(String), fc.constant('-1'), fc.string().filter((s) => !/^\d+$/.test(s))),
  is_active: fc.string().filter((s) => !['true', 'false', '1', '0'].includes(s)),
  status: fc.string().filter((s) => !['NEW', 'SCANNED', 'INVITED', 'ACTIVE', 'INACTIVE'].includes(s)),
  created_at_start: fc.string().filter((s) => Number.isNaN(Date.parse(s)) || !s.includes('T')),
  widget_version: fc.string().filter((s) => !/^\d+$/.test(s)),
};

describe('fuzzing every domains endpoint with malformed input', () => {
  let sys: System;
  let partner: Partner;
  let domainId: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    sys = await startSystem({ RATE_LIMIT_PER_MINUTE: '1000000' });
    partner = await sys.partner();
    const host = `fuzz-${Date.now()}.example.com`;
    domainId = (await sys.call(partner, 'POST', '/portal/domains', { domain: host, company_name: 'Fuzz Co', account_email: 'f@example.com', subdomains: [`a.${host}`] })).body.result.id;
    snapshot = async () =>
      JSON.stringify([
        (await sys.call(partner, 'GET', `/portal/domains/${domainId}`)).body,
        (await sys.call(partner, 'GET', '/portal/domains?limit=100')).body,
        (await sys.call(partner, 'GET', `/portal/domains/${domainId}/subdomains`)).body,
      ]);
  });
  afterAll(() => sys?.close());

  const expectEnvelope = (res: { status: number; body: { error?: { code: string; ns: string; status: number; message: string } } }) => {
    expect(res.status).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body?.error).toEqual(expect.objectContaining({ code: expect.any(String), ns: expect.any(String), message: expect.any(String), status: res.status }));
  };

  it('when bodies are malformed or mistyped on every write endpoint, then always a 4xx envelope and stored data unchanged', async () => {
    const before = await snapshot();
    const endpoints: [string, string, fc.Arbitrary<{ raw: string }>][] = [
      ['POST', '/portal/domains', body(CREATE_FIELDS)],
      ['PUT', `/portal/domains/${domainId}`, body(UPDATE_FIELDS)],
      ['POST', `/portal/domains/${domainId}/invite`, body({ send_intro: 'boolean', send_invite: 'boolean' })],
      ['POST', `/portal/domains/${domainId}/subdomains`, body({ subdomain: 'string' })],
      ['DELETE', `/portal/domains/${domainId}/subdomains`, body({ subdomain: 'string' })],
    ];
    for (const [method, path, arb] of endpoints) {
      await fc.assert(
        fc.asyncProperty(arb, async ({ raw }) => {
          const res = await sys.call(partner, method, path, raw, { 'content-type': 'application/json' });
          expectEnvelope(res);
        }),
        { numRuns: 60 },
      );
    }
    expect(await snapshot()).toBe(before);
  });

  it('when list queries carry invalid values, then always 400 with the envelope', async () => {
    const param = fc.oneof(...Object.entries(QUERY_INVALID).map(([k, v]) => v.map((value) => [k, value] as const)));
    await fc.assert(
      fc.asyncProperty(fc.array(param, { minLength: 1, maxLength: 3 }), async (pairs) => {
        const res = await sys.call(partner, 'GET', `/portal/domains?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString()}`);
        expect(res.status).toBe(400);
        expectEnvelope(res);
      }),
      { numRuns: 150 },
    );
  });

  it('when path ids and query strings are arbitrary text, then never a 5xx and errors keep the envelope', async () => {
    const before = await snapshot();
    const templates: [string, (id: string) => string][] = [
      ['GET', (id) => `/portal/domains/${id}`],
      ['DELETE', (id) => `/portal/domains/${id}`],
      ['POST', (id) => `/portal/domains/${id}/activate`],
      ['POST', (id) => `/portal/domains/${id}/deactivate`],
      ['GET', (id) => `/portal/domains/${id}/subdomains`],
      ['DELETE', (id) => `/portal/domains/${domainId}/subdomains/${id}x`],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates), fc.string({ minLength: 1, maxLength: 60 }), fc.string({ maxLength: 40 }), async ([method, path], id, query) => {
        const res = await sys.call(partner, method, `${path(encodeURIComponent(id))}?${encodeURIComponent(query)}=${encodeURIComponent(id)}`);
        if (res.status >= 400) expectEnvelope(res);
        else expect(res.status).toBe(200);
      }),
      { numRuns: 200 },
    );
    expect(await snapshot()).toBe(before);
  });
});

import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';
import { isOwnerRoute, ROUTES, type RouteSpec } from '@platform/contracts';
import { partnerAdmin } from './support/onboarding';
import { sharedSystem, type Partner, type System } from './support/system';

/** What a partner can read back about one domain and its list: compared before and after a fuzz run. */
const storedState = async (sys: System, partner: Partner, domainId: string) =>
  JSON.stringify([
    (await sys.call(partner, 'GET', `/portal/domains/${domainId}`)).body,
    (await sys.call(partner, 'GET', '/portal/domains?limit=100')).body,
    (await sys.call(partner, 'GET', `/portal/domains/${domainId}/subdomains`)).body,
  ]);

type JsonSchema = {
  type?: string;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
};

/** Whether a field takes text (a string, an enum of strings, or either in an anyOf), and whether as an array. */
function textKind(schema: JsonSchema): 'text' | 'array' | undefined {
  if (schema.type === 'string' || (schema.enum ?? []).some((v) => typeof v === 'string')) return 'text';
  if (schema.type === 'array' && schema.items && textKind(schema.items) === 'text') return 'array';
  for (const option of schema.anyOf ?? []) if (textKind(option)) return textKind(option);
  return undefined;
}

/** Every text field of a zod object schema, from its JSON Schema (the same one /openapi.json shows). */
function textFields(schema: z.ZodType | undefined): [string, 'text' | 'array'][] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return Object.entries(json.properties ?? {}).flatMap(([name, field]) => {
    const kind = textKind(field);
    return kind ? [[name, kind] as [string, 'text' | 'array']] : [];
  });
}

/** Text PostgreSQL cannot store: JSON.stringify writes the lone surrogate as the escape \ud800. */
const UNSTORABLE = { nul: 'a\u0000b', 'lone surrogate': 'a\ud800b', 'lone low surrogate': '\udc00' };

type FieldKind = 'string' | 'nullable string' | 'boolean' | 'enum' | 'array';

/** Values of the wrong JSON type for a field of the given kind, so every generated body is invalid. */
const wrongFor = (kind: FieldKind) => {
  const notStringOrNull = fc.oneof(
    fc.integer(),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
  );
  const notString = fc.oneof(notStringOrNull, fc.constant(null));
  switch (kind) {
    case 'string':
      return notString;
    // null clears such a field (a valid request), so it is not one of the wrong values.
    case 'nullable string':
      return notStringOrNull;
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer({ min: 2 }), fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 }));
    case 'enum':
      return fc.oneof(
        notString,
        fc.string().filter((s) => !/^[A-Z_]+$/.test(s)),
      );
    case 'array':
      return fc.oneof(
        fc.string(),
        fc.integer(),
        fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
        fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
      );
  }
};

const CREATE_FIELDS = {
  domain: 'string',
  company_name: 'string',
  account_email: 'string',
  has_scripts: 'boolean',
  has_dsar: 'boolean',
  display_dpo: 'boolean',
  subdomains: 'array',
  default_notice_type: 'enum',
  action: 'enum',
  company_setup: 'boolean',
} as const;
const UPDATE_FIELDS = {
  company_name: 'string',
  company_trade_name: 'string',
  country: 'string',
  primary_color: 'string',
  has_scripts: 'boolean',
  has_docs: 'boolean',
  display_company: 'boolean',
  default_notice_type: 'enum',
} as const;

/** An object with at least one known field of the wrong type, plus random extra keys. */
const invalidObject = (fields: Record<string, FieldKind>) =>
  fc
    .record(Object.fromEntries(Object.entries(fields).map(([k, kind]) => [k, wrongFor(kind)])), { requiredKeys: [] })
    .filter((o) => Object.keys(o).length > 0)
    .chain((o) =>
      fc
        .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
        .map((extra) => ({ ...extra, ...o })),
    );

/** Bodies that are not an acceptable JSON object at all: garbage text, scalars, arrays, deep nesting. */
const notAnObject = fc.oneof(
  // Text after "{" that does not close it into valid JSON ("{}" would be a valid, empty body).
  fc
    .string()
    .map((s) => `{${s}`)
    .filter((raw) => {
      try {
        JSON.parse(raw);
        return false;
      } catch {
        return true;
      }
    })
    .map((raw) => ({ raw })),
  fc
    .jsonValue({ maxDepth: 3 })
    .filter((v) => typeof v !== 'object' || v === null || Array.isArray(v))
    .map((v) => ({ raw: JSON.stringify(v) })),
  fc.constant({ raw: '{"a":'.repeat(200) }),
);

const body = (fields: Record<string, FieldKind>) =>
  fc.oneof(
    invalidObject(fields).map((o) => ({ raw: JSON.stringify(o) })),
    notAnObject,
  );

const QUERY_INVALID = {
  page: fc.oneof(
    fc.constant('0'),
    fc.string().filter((s) => !/^\d+$/.test(s)),
  ),
  limit: fc.oneof(
    fc.integer({ min: 101, max: 10 ** 9 }).map(String),
    fc.constant('-1'),
    fc.string().filter((s) => !/^\d+$/.test(s)),
  ),
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
    sys = await sharedSystem();
    partner = await sys.partner();
    const host = `fuzz-${Date.now()}.example.com`;
    domainId = (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: 'Fuzz Co',
        account_email: 'f@example.com',
        subdomains: [`a.${host}`],
      })
    ).body.result.id;
    snapshot = () => storedState(sys, partner, domainId);
  });
  afterAll(() => sys?.close());

  const expectEnvelope = (res: {
    status: number;
    body: { error?: { code: string; ns: string; status: number; message: string } };
  }) => {
    expect(res.status).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body?.error).toEqual(
      expect.objectContaining({
        code: expect.any(String),
        ns: expect.any(String),
        message: expect.any(String),
        status: res.status,
      }),
    );
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
        const res = await sys.call(
          partner,
          'GET',
          `/portal/domains?${new URLSearchParams(pairs.map(([k, v]): [string, string] => [k, v])).toString()}`,
        );
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
      fc.asyncProperty(
        fc.constantFrom(...templates),
        fc.string({ minLength: 1, maxLength: 60, unit: 'binary-ascii' }),
        fc.string({ maxLength: 40, unit: 'binary-ascii' }),
        async ([method, path], id, query) => {
          const res = await sys.call(
            partner,
            method,
            `${path(encodeURIComponent(id))}?${encodeURIComponent(query)}=${encodeURIComponent(id)}`,
          );
          if (res.status >= 400) expectEnvelope(res);
          else expect(res.status).toBe(200);
        },
      ),
      { numRuns: 200 },
    );
    expect(await snapshot()).toBe(before);
  });
});

describe('fuzzing every text field of every route with text PostgreSQL cannot store', () => {
  let sys: System;
  let partner: Partner;
  let domainId: string;
  let propertyId: string;
  let host: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    host = `text-${Date.now()}.example.com`;
    const created = (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: 'Text Co',
        account_email: 't@example.com',
        subdomains: [`a.${host}`],
      })
    ).body.result;
    [domainId, propertyId] = [created.id, created.instance_property_id];
    snapshot = () => storedState(sys, partner, domainId);
    // The onboarding widgets answer only for a partner that turned them on, to a page on an allowed origin.
    const on = { enabled: true, allowed_origins: [`https://${host}`], primary_color: null };
    await (await partnerAdmin(sys, partner)).widgets({ registration: on, scan: on });
  });
  afterAll(() => sys?.close());

  const pathOf = (route: RouteSpec) =>
    route.path
      .replace('{domainId}', domainId)
      .replace('{subdomain}', `a.${host}`)
      .replace('{propertyId}', propertyId)
      .replace('{partnerId}', partner.id);
  /** A public (widget) route answers only to a page on the property's hostname (the onboarding widgets': an allowed origin). */
  const headersOf = (route: RouteSpec): Record<string, string> =>
    route.access === 'public' ? { origin: `https://${host}` } : {};
  /** A body that is valid but for the field under test, so only the text check can refuse it. */
  const baseBody = (route: RouteSpec): Record<string, unknown> =>
    route.operationId === 'createDomain'
      ? { domain: `new-${Date.now()}.example.com`, company_name: 'New Co', account_email: 'n@example.com' }
      : route.multipart
        ? { dry_run: 'true' }
        : {};
  /** An upload route's body as multipart/form-data: the text fields, and a one-row csv as its file. */
  const formOf = (route: RouteSpec & { multipart: { file: string } }, fields: Record<string, unknown>) => {
    const boundary = 'fuzz-form-boundary-7MA4YWxk';
    const part = (name: string, head: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${head}\r\n\r\n${value}\r\n`;
    const text = Object.entries(fields).map(([name, value]) => part(name, '', String(value)));
    const file = part(
      route.multipart.file,
      '; filename="fuzz.csv"\r\nContent-Type: text/csv',
      'domain\r\nfuzz.example.com',
    );
    return {
      raw: [...text, file, `--${boundary}--\r\n`].join(''),
      headers: { ...headersOf(route), 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  };

  // User-only routes answer a key 403 before reading its input (the gateway's tests cover their validation);
  // the owner console's answer it 401 (no owner session): their bodies and queries are the partner routes' schemas.
  const keyRoutes = ROUTES.filter((route) => !route.userOnly && !isOwnerRoute(route));
  const bodyCases = keyRoutes.flatMap((route) =>
    textFields(route.body).flatMap(([field, kind]) =>
      Object.entries(UNSTORABLE).map(
        ([what, value]) =>
          [`${route.operationId} body.${field} (${what})`, route, field, kind === 'array' ? [value] : value] as const,
      ),
    ),
  );
  const queryCases = keyRoutes.flatMap((route) =>
    textFields(route.query).map(([field]) => [`${route.operationId} query.${field}`, route, field] as const),
  );

  it('when create bodies carry arbitrary text in every text field (any code unit, NUL and lone surrogates included), then never a 5xx', async () => {
    const before = await snapshot();
    const anyText = fc.string({ unit: 'binary', maxLength: 30 });
    const fields = textFields(ROUTES.find((r) => r.operationId === 'createDomain')!.body).filter(
      ([name]) => name !== 'domain',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          Object.fromEntries(
            fields.map(([name, kind]) => [name, kind === 'array' ? fc.array(anyText, { maxLength: 2 }) : anyText]),
          ),
          { requiredKeys: [] },
        ),
        async (extra) => {
          const res = await sys.call(partner, 'POST', '/portal/domains', {
            domain: `any-${Date.now()}-${Math.random().toString(36).slice(2)}.example.com`,
            company_name: 'Any Co',
            account_email: 'a@example.com',
            ...extra,
          });
          expect(res.status).not.toBeGreaterThanOrEqual(500);
          if (res.status >= 400) expect(res.body.error.status).toBe(res.status);
        },
      ),
      { numRuns: 150 },
    );
    // Creates never touch another domain; the list grew, the first domain did not change.
    expect(JSON.parse(await snapshot())[0]).toEqual(JSON.parse(before)[0]);
  });

  it('when the route table is read, then it has text fields in bodies and queries to fuzz', () => {
    expect(bodyCases.length).toBeGreaterThan(60);
    expect(queryCases.length).toBeGreaterThan(15);
  });

  it('when any text field of any body holds a NUL or a lone surrogate, then 400 names that field and nothing is stored', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const [name, route, field, value] of bodyCases) {
      const body = { ...baseBody(route), [field]: value };
      // An upload route reads its text fields from the form (NUL as a byte, a lone surrogate as U+FFFD).
      const form = route.multipart ? formOf({ ...route, multipart: route.multipart }, body) : undefined;
      const res = await sys.call(
        partner,
        route.method.toUpperCase(),
        pathOf(route),
        form ? form.raw : body,
        form ? form.headers : headersOf(route),
      );
      const paths: string[] = res.body?.error?.data?.issues?.map((i: { path: string }) => i.path) ?? [];
      if (
        res.status !== 400 ||
        res.body.error.code !== 'VALIDATION.INVALID' ||
        !paths.some((p) => p === `body.${field}` || p.startsWith(`body.${field}.`))
      ) {
        failures.push(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('when any text query parameter holds a NUL, then 400 names it', async () => {
    const failures: string[] = [];
    for (const [name, route, field] of queryCases) {
      // A public route checks the page's Origin first: send the property's own, as its widget would.
      const res = await sys.call(
        partner,
        route.method.toUpperCase(),
        `${pathOf(route)}?${field}=a%00b`,
        undefined,
        headersOf(route),
      );
      const paths: string[] = res.body?.error?.data?.issues?.map((i: { path: string }) => i.path) ?? [];
      if (res.status !== 400 || !paths.includes(`query.${field}`))
        failures.push(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('when a path parameter or a JSON key holds a NUL or a lone surrogate, then a 4xx envelope, never a 5xx', async () => {
    const before = await snapshot();
    const withParams = ROUTES.filter((r) => r.params);
    expect(withParams.length).toBeGreaterThan(10);
    for (const route of withParams) {
      const path = route.path.replace('{domainId}', '%00').replace('{subdomain}', 'a%00');
      const res = await sys.call(partner, route.method.toUpperCase(), path);
      expect([route.operationId, res.status < 500 && res.status >= 400, res.body?.error?.status]).toEqual([
        route.operationId,
        true,
        res.status,
      ]);
    }
    const key = await sys.call(partner, 'PUT', `/portal/domains/${domainId}`, '{"\\ud800":1,"a\\u0000":2}', {
      'content-type': 'application/json',
    });
    expect(key.status).toBe(400);
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ['deflate', 400],
    ['gzip', 400],
    ['br', 400],
    ['zstd-not-really', 415],
    ['compress', 415],
  ])('when a body claims Content-Encoding %s but is plain JSON, then %i in the envelope', async (encoding, status) => {
    const res = await sys.call(partner, 'PUT', `/portal/domains/${domainId}`, '{"city":"Oslo"}', {
      'content-type': 'application/json',
      'content-encoding': encoding,
    });
    expect(res.status).toBe(status);
    expect(res.body.error).toEqual(
      expect.objectContaining({ status, ns: expect.any(String), code: expect.any(String) }),
    );
  });

  it('when a body is really gzip or deflate encoded, then it is decoded and applied', async () => {
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
    ] as const) {
      const city = `City ${encoding}`;
      const res = await fetch(`${sys.gateway}/portal/domains/${domainId}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${partner.key}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: encode(Buffer.from(JSON.stringify({ city }))),
      });
      expect(res.status).toBe(200);
      expect(
        (await sys.call(partner, 'GET', `/portal/domains/${domainId}`)).body.result.property.company.address.city,
      ).toBe(city);
    }
  });
});

describe('fuzzing the merchant and product-change routes with malformed input', () => {
  let sys: System;
  let partner: Partner;
  let domainId: string;
  let merchantId: string;
  let snapshot: () => Promise<string>;

  const MERCHANT_FIELDS = {
    merchant_id: 'string',
    company_name: 'nullable string',
    description: 'nullable string',
    default_product: 'nullable string',
    default_price_list: 'nullable string',
  } as const;
  const PRODUCT_FIELDS = { product: 'string', price_list: 'string' } as const;

  beforeAll(async () => {
    sys = await sharedSystem();
    partner = await sys.partner();
    const host = `fuzz-m-${Date.now()}.example.com`;
    domainId = (
      await sys.arrange(partner, 'POST', '/portal/domains', {
        domain: host,
        company_name: 'Fuzz M',
        account_email: 'f@example.com',
        merchant_id: 'fuzz-m',
        product: 'PRO',
      })
    ).body.result.id;
    merchantId = (await sys.arrange(partner, 'GET', '/portal/merchants?merchant_id=fuzz-m')).body.result[0].id;
    // Also what billing-svc and merchants-svc hold, not only what domains-svc shows.
    snapshot = async () =>
      JSON.stringify([
        await storedState(sys, partner, domainId),
        (await sys.call(partner, 'GET', `/portal/merchants/${merchantId}`)).body,
        (await sys.call(partner, 'GET', '/portal/merchants?limit=100')).body,
      ]);
  });
  afterAll(() => sys?.close());

  it('when bodies are malformed or mistyped, then always a 4xx envelope and stored data unchanged', async () => {
    const before = await snapshot();
    const bulkEntry = fc.oneof(
      invalidObject(PRODUCT_FIELDS),
      fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null),
    );
    const bulk = fc.oneof(
      body({ domains: 'array' }),
      fc.array(bulkEntry, { minLength: 1, maxLength: 5 }).map((domains) => ({ raw: JSON.stringify({ domains }) })),
      fc.constant({
        raw: JSON.stringify({ domains: Array.from({ length: 101 }, () => ({ id: domainId, product: 'FREE' })) }),
      }),
    );
    const endpoints: [string, string, fc.Arbitrary<{ raw: string }>][] = [
      ['POST', '/portal/merchants', body(MERCHANT_FIELDS)],
      ['PUT', `/portal/merchants/${merchantId}`, body(MERCHANT_FIELDS)],
      ['POST', `/portal/domains/${domainId}/subscription/product`, body(PRODUCT_FIELDS)],
      ['POST', '/portal/domains/bulk/subscription/product', bulk],
    ];
    for (const [method, path, arb] of endpoints) {
      await fc.assert(
        fc.asyncProperty(arb, async ({ raw }) => {
          const res = await sys.call(partner, method, path, raw, { 'content-type': 'application/json' });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(res.body?.error).toEqual(
            expect.objectContaining({ code: expect.any(String), ns: expect.any(String), status: res.status }),
          );
        }),
        { numRuns: 50 },
      );
    }
    expect(await snapshot()).toBe(before);
  });

  it('when merchant ids and list queries are arbitrary text, then never a 5xx and errors keep the envelope', async () => {
    const before = await snapshot();
    const templates: [string, (id: string) => string][] = [
      ['GET', (id) => `/portal/merchants/${id}`],
      ['DELETE', (id) => `/portal/merchants/${id}x`],
      ['GET', (id) => `/portal/merchants?merchant_id=${id}`],
      ['GET', (id) => `/portal/merchants?is_registered=${id}`],
      ['GET', (id) => `/portal/merchants?meta.${id}=${id}`],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...templates),
        fc.string({ minLength: 1, maxLength: 60, unit: 'binary-ascii' }),
        async ([method, path], id) => {
          const res = await sys.call(partner, method, path(encodeURIComponent(id)));
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400)
            expect(res.body?.error).toEqual(expect.objectContaining({ status: res.status, code: expect.any(String) }));
        },
      ),
      { numRuns: 150 },
    );
    expect(await snapshot()).toBe(before);
  });
});

import { z } from 'zod';

// One wording for a missing field everywhere ("is required", not "expected string, received undefined").
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined),
});

/**
 * What a query (or form) helper is on the wire, for the OpenAPI document: the parsers below read
 * text, but a generated client should send an integer or a boolean, not a string with a pattern;
 * an uploaded file is binary.
 */
const QUERY_INT_MAX = 999_999_999;

export const queryWireSchemas = new WeakMap<object, Record<string, unknown>>();

/**
 * Query-string integer: digits only, so "1.5", "1e3", "" and arrays are rejected, not coerced.
 * Any number of digits is an integer; one past the bound (default 999999999) is refused with
 * the bound's own message, not as "not an integer".
 */
export const queryInt = (bounds: { min?: number; max?: number; maxMessage?: string } = {}) => {
  const max = bounds.max ?? QUERY_INT_MAX;
  let value = z.number().max(max, bounds.maxMessage ?? `must be at most ${max}`);
  if (bounds.min !== undefined) value = value.min(bounds.min, `must be at least ${bounds.min}`);
  const schema = z.string().regex(/^\d+$/, 'must be an integer').transform(Number).pipe(value);
  queryWireSchemas.set(schema, {
    type: 'integer',
    ...(bounds.min !== undefined ? { minimum: bounds.min } : {}),
    ...(bounds.max !== undefined ? { maximum: bounds.max } : {}),
  });
  return schema;
};

/** Query-string boolean: true/false, also 1/0; anything else is a 400. */
export const queryBool = () => {
  const schema = z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1');
  queryWireSchemas.set(schema, { type: 'boolean', description: 'true or false (1 and 0 are accepted too)' });
  return schema;
};

/** A file of a multipart/form-data body (see RouteSpec.multipart), as the service's reader hands it to the route's schema. */
export interface UploadedFile {
  filename: string;
  content_type: string;
  data: Uint8Array;
}

/** A multipart body's file field: validated as an UploadedFile, documented as binary. */
export const uploadedFile = (description?: string) => {
  const file = z.custom<UploadedFile>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      (v as UploadedFile).data instanceof Uint8Array &&
      typeof (v as UploadedFile).filename === 'string',
    'must be a file',
  );
  // Described here: .meta() makes a new schema, which would not be the one registered below.
  const schema = description === undefined ? file : file.meta({ description });
  queryWireSchemas.set(schema, { type: 'string', format: 'binary' });
  return schema;
};

/** ISO 8601 date-time with an offset or Z. */
export const dateTime = () => z.iso.datetime({ offset: true });

export const PAGE_LIMIT_MAX = 100;

/**
 * The deepest row a list serves (page × limit): offsets cost a scan of every row before them.
 * libs/http's listPage holds page × limit to it; the page parameter alone can never pass it.
 */
export const LIST_DEPTH_MAX = 100_000;
const DEPTH_MESSAGE = `page × limit may be at most ${LIST_DEPTH_MAX}; narrow the list with filters (e.g. created_at_end) to go further back`;

export const paginationQuerySchema = z.object({
  page: queryInt({ min: 1, max: LIST_DEPTH_MAX, maxMessage: DEPTH_MESSAGE })
    .default(1)
    .meta({ description: 'Page number, from 1' }),
  limit: queryInt({ min: 1, max: PAGE_LIMIT_MAX })
    .default(10)
    .meta({ description: `Results per page, 1 to ${PAGE_LIMIT_MAX}` }),
});
export type PaginationQuery = z.output<typeof paginationQuerySchema>;

export const paginationMetaSchema = z
  .object({
    current_page: z.number().int(),
    next_page: z.number().int().optional().meta({ description: 'Present only when another page exists' }),
    prev_page: z.number().int().optional().meta({ description: 'Present only past the first page' }),
  })
  .meta({ id: 'PaginationMeta' });
export type PaginationMeta = z.infer<typeof paginationMetaSchema>;

/** meta for a page; hasMore comes from fetching limit + 1 rows. */
export function paginationMeta(page: number, hasMore: boolean): PaginationMeta {
  return {
    current_page: page,
    ...(hasMore ? { next_page: page + 1 } : {}),
    ...(page > 1 ? { prev_page: page - 1 } : {}),
  };
}

export const resultOf = <T extends z.ZodType>(schema: T) => z.object({ result: schema });
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ meta: paginationMetaSchema, result: z.array(item) });
export const emptyResultSchema = z.object({ result: z.object({}).strict() });
/**
 * The spec's answer to a delete, `{result: {deleted: true}}` (domains, merchants, webhook endpoints,
 * portal users). A delete that answers something else says what it answers: a revoked API key, the
 * e-mail template it falls back to; signing out and turning 2FA off answer 204.
 */
export const deletedSchema = z.object({ deleted: z.boolean() });

/**
 * What PostgreSQL text and jsonb cannot store: a NUL character, or a UTF-16 surrogate without its
 * pair (JSON.parse accepts "\ud800"; PostgreSQL would reject or silently replace it).
 */
export const isStorableText = (s: string) => !s.includes('\u0000') && s.isWellFormed();

/**
 * A single-line text field (a name, a subject): no CR, LF or other control character, which
 * would let the text forge lines (headers) wherever it is written into a mail or a log.
 */
export const singleLine = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((s) => !/[\p{Cc}\u2028\u2029]/u.test(s), 'must be a single line without control characters');

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

/**
 * Every string (and object key) in a request part that cannot be stored, as validation issues
 * naming the field: checked once for every route, before its own schema.
 */
export function unstorableTextIssues(value: unknown, path: string): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const visit = (v: unknown, at: string, depth: number) => {
    if (typeof v === 'string') {
      if (!isStorableText(v)) issues.push({ path: at, message: UNSTORABLE_TEXT_MESSAGE });
    } else if (ArrayBuffer.isView(v)) {
      // An uploaded file's bytes: its own reader judges them, not the text rules.
    } else if (Array.isArray(v)) {
      if (depth < 64) v.forEach((item, i) => visit(item, `${at}.${i}`, depth + 1));
    } else if (v !== null && typeof v === 'object' && depth < 64) {
      for (const key of Object.keys(v)) {
        if (!isStorableText(key)) issues.push({ path: at, message: `has a key that ${UNSTORABLE_TEXT_MESSAGE}` });
        else visit((v as Record<string, unknown>)[key], `${at}.${key}`, depth + 1);
      }
    }
  };
  visit(value, path, 0);
  return issues;
}

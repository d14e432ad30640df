import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { PlatformApiError } from './errors';
import { DEFAULT_RETRIES, retrying, type RetryOptions } from './retry';

export type { paths, components, operations } from './generated/openapi';

type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The API's paths that answer a given method. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

type SuccessData<P extends keyof paths, M extends HttpMethod, Init> = Extract<
  FetchResponse<paths[P][M] & Record<string | number, unknown>, Init, 'application/json'>,
  { error?: never }
>['data'];

/** The body of a route's 2xx answer (undefined for a 204). */
export type ResultOf<P extends keyof paths, M extends HttpMethod, Init = undefined> = [
  NonNullable<SuccessData<P, M, Init>>,
] extends [never]
  ? undefined
  : NonNullable<SuccessData<P, M, Init>>;

type Init<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The options argument may be left out when nothing in it is required (as in openapi-fetch). */
type InitArg<I> = [RequiredKeys<NonNullable<I>>] extends [never] ? [init?: I] : [init: I];

/** Like openapi-fetch's methods, but a non-2xx answer throws PlatformApiError, so `data` is always the answer's. */
export type PlatformMethod<M extends HttpMethod> = <P extends PathsWith<M>, I extends Init<P, M>>(
  path: P,
  ...init: InitArg<I>
) => Promise<{ data: ResultOf<P, M, I>; response: Response }>;

/** GET paths that answer a page: `{result: [...], meta: {current_page, next_page?}}`. */
export type ListPath = {
  [P in PathsWith<'get'>]: ResultOf<P, 'get'> extends { result: readonly unknown[]; meta: { next_page?: number } }
    ? P
    : never;
}[PathsWith<'get'>];

/** One row of a list. */
export type ItemOf<P extends ListPath> = ResultOf<P, 'get'> extends { result: readonly (infer T)[] } ? T : never;

type ListParams<P extends ListPath> = paths[P]['get'] extends { parameters: infer Params } ? Params : never;

export interface PlatformClientOptions {
  /** The gateway, e.g. https://api.example.com or http://127.0.0.1:8080 (the portal: its own origin). */
  baseUrl: string;
  /** A partner API key: sent as `Authorization: Bearer`. Leave out in the portal, which uses its session cookie. */
  apiKey?: string;
  /** Defaults to the global fetch (browsers, Node 18+). */
  fetch?: (request: Request) => Promise<Response>;
  /** The portal sends its session cookie with `'include'` (or `'same-origin'`). */
  credentials?: 'include' | 'same-origin' | 'omit';
  /** The session's csrf_token, read at each write and sent as X-CSRF-Token (session writes need it). */
  csrfToken?: () => string | undefined;
  /** Retries of 429 and 503 answers (which honour Retry-After): a number of retries, or the full settings. */
  retries?: number | RetryOptions;
}

export interface PlatformClient {
  GET: PlatformMethod<'get'>;
  POST: PlatformMethod<'post'>;
  PUT: PlatformMethod<'put'>;
  PATCH: PlatformMethod<'patch'>;
  DELETE: PlatformMethod<'delete'>;
  /** Every row of a list, page after page, following `meta.next_page` (the `page` of params is where it starts). */
  paginate<P extends ListPath>(
    path: P,
    ...params: [RequiredKeys<ListParams<P>>] extends [never] ? [params?: ListParams<P>] : [params: ListParams<P>]
  ): AsyncGenerator<ItemOf<P>, void, undefined>;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A random UUID: crypto.randomUUID where the page is a secure context, else built from getRandomValues. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function retryOptions(retries: PlatformClientOptions['retries']): Required<RetryOptions> {
  if (typeof retries === 'number') return { ...DEFAULT_RETRIES, retries };
  // A setting given as undefined keeps its default.
  const given = Object.entries(retries ?? {}).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_RETRIES, ...Object.fromEntries(given) };
}

/**
 * A typed client of the partner API (types generated from /openapi.json). Runs in browsers and Node:
 * it only needs fetch, Request and crypto.
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sendWithRetries = retrying(send, retryOptions(options.retries));

  // Headers are set once, before the first attempt: every retry of a write carries the same Idempotency-Key.
  const fetchWithHeaders = (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    if (options.apiKey && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${options.apiKey}`);
    if (WRITE_METHODS.has(request.method)) {
      if (!headers.has('Idempotency-Key')) headers.set('Idempotency-Key', newIdempotencyKey());
      const csrf = options.csrfToken?.();
      if (csrf && !headers.has('X-CSRF-Token')) headers.set('X-CSRF-Token', csrf);
    }
    return sendWithRetries(new Request(request, { headers }));
  };

  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: fetchWithHeaders,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });

  type Call = (path: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const throwing =
    (call: Call) =>
    async (path: string, init?: object): Promise<{ data: unknown; response: Response }> => {
      const { data, error, response } = await call(path, init);
      if (!response.ok) throw new PlatformApiError(response, error);
      return { data, response };
    };

  const GET = throwing(api.GET as Call);
  async function* paginate(path: string, params: { query?: Record<string, unknown> } = {}) {
    let page = Number(params.query?.page ?? 1);
    for (;;) {
      const { data } = await GET(path, { params: { ...params, query: { ...params.query, page } } });
      const { result, meta } = data as { result: unknown[]; meta?: { next_page?: number } };
      yield* result;
      const next = meta?.next_page;
      if (next === undefined || next === null) return;
      // A next page that does not move forward would loop for ever.
      if (!(next > page)) throw new Error(`${path}: meta.next_page ${next} does not follow page ${page}`);
      page = next;
    }
  }

  return {
    GET,
    POST: throwing(api.POST as Call),
    PUT: throwing(api.PUT as Call),
    PATCH: throwing(api.PATCH as Call),
    DELETE: throwing(api.DELETE as Call),
    paginate,
  } as unknown as PlatformClient;
}

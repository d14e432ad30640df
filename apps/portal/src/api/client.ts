// The portal's one way to the API: same-origin fetch with the session cookie, the CSRF token on every
// write, and the contract's error envelope turned into an ApiError (with field errors for forms).
// Typed by the route tables, so it can later be swapped for @platform/client without touching pages.
import type { z } from 'zod';
import type { ErrorObject, RouteSpec } from '@platform/contracts';

type Part<S, K extends string> = S extends { [k in K]: infer T extends z.ZodType } ? z.input<T> : never;
type QueryOf<S> = S extends { query: infer Q extends z.ZodType }
  ? { [K in keyof z.input<Q>]?: string | number | boolean | string[] | undefined }
  : never;

/** What a call may send: the route's params, query and body (each only when the route has it). */
export type CallInput<S extends RouteSpec> = {
  params?: Part<S, 'params'>;
  query?: QueryOf<S>;
  body?: Part<S, 'body'>;
};
/** What a route answers on success (its response schema's output). */
export type Answer<S extends RouteSpec> = z.output<S['response']>;

/** An answer outside 2xx, as the contract's error envelope describes it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** VALIDATION.INVALID issues by field name ("body.domain" -> "domain"); the first message per field. */
  get fieldErrors(): Record<string, string> {
    const issues = Array.isArray(this.data.issues) ? (this.data.issues as { path?: unknown; message?: unknown }[]) : [];
    const fields: Record<string, string> = {};
    for (const issue of issues) {
      const field = String(issue.path ?? '').replace(/^(body|query|params)\.?/, '') || 'form';
      fields[field] ??= String(issue.message ?? 'is invalid');
    }
    return fields;
  }
}

let csrfToken: string | undefined;
let onSessionEnded: (() => void) | undefined;

/** The session's CSRF token, sent as X-CSRF-Token on every write. */
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};
/** Called when an answer says the session is gone (401), so the app shows "session expired" once. */
export const setSessionEndedHandler = (handler: () => void) => {
  onSessionEnded = handler;
};

export function pathOf(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

function queryString(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '' || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Calls one route of a route table; resolves to its answer, rejects with ApiError. */
export async function call<S extends RouteSpec>(route: S, input: CallInput<S> = {}): Promise<Answer<S>> {
  const write = route.method !== 'get';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (write && csrfToken) headers['x-csrf-token'] = csrfToken;
  if (input.body !== undefined) headers['content-type'] = 'application/json';
  const url = pathOf(route.path, input.params as Record<string, unknown>) + queryString(input.query);
  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method.toUpperCase(),
      headers,
      credentials: 'include',
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The portal cannot reach the server. Check your connection and try again.');
  }
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (response.ok) return json as Answer<S>;
  const error = (json as { error?: Partial<ErrorObject> } | undefined)?.error;
  const failure = new ApiError(
    response.status,
    error?.code ?? 'SERVER.INTERNAL',
    error?.message ?? `The server answered ${response.status}.`,
    error?.data,
  );
  if (response.status === 401 && route.path !== '/portal/auth/session') onSessionEnded?.();
  throw failure;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

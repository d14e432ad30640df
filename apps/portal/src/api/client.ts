// The portal's one way to the API: @platform/client on the page's own origin, with the session cookie,
// the CSRF token and an Idempotency-Key on every write, and 429/503 retried as Retry-After says.
// call() keeps the screens typed by the route tables (libs/contracts) and turns every failure into an
// ApiError (with field errors for forms).
import { createPlatformClient, PlatformApiError, type PlatformClient } from '@platform/client';
import type { z } from 'zod';
import type { RouteSpec, UploadedFile } from '@platform/contracts';

type Part<S, K extends string> = S extends { [k in K]: infer T extends z.ZodType } ? z.input<T> : never;
type QueryOf<S> = S extends { query: infer Q extends z.ZodType }
  ? { [K in keyof z.input<Q>]?: string | number | boolean | string[] | undefined }
  : never;

/** A multipart route's (RouteSpec.multipart) fields as a browser has them: a File for the file, text for the rest. */
export type MultipartFields<S> = S extends { multipart: object; body: infer B extends z.ZodType }
  ? { [K in keyof z.input<B>]: z.input<B>[K] extends UploadedFile ? File : z.input<B>[K] }
  : never;
/** What a call may send: the route's params, query and body (each only when the route has it); an upload's body is FormData (see multipart()). */
export type CallInput<S extends RouteSpec> = {
  params?: Part<S, 'params'>;
  query?: QueryOf<S>;
  body?: S extends { multipart: object } ? FormData : Part<S, 'body'>;
};

/**
 * An upload's body, typed by its route: openapi-fetch sends FormData as it is (the browser sets the
 * multipart Content-Type and boundary), with the same headers, retries and errors as JSON calls.
 */
export function multipart<S extends RouteSpec & { multipart: object }>(
  _route: S,
  fields: MultipartFields<S>,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields as Record<string, unknown>))
    if (value instanceof File) form.append(name, value, value.name);
    else if (value !== undefined) form.append(name, String(value));
  return form;
}
/** What a route answers on success (its response schema's output). */
export type Answer<S extends RouteSpec> = z.output<S['response']>;

/** A failed call: the contract's error envelope (or NETWORK when no answer came). */
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

let platform: PlatformClient | undefined;
/** One client for the page (made at the first call, when `location` is there). */
const client = () =>
  (platform ??= createPlatformClient({
    baseUrl: location.origin,
    credentials: 'same-origin',
    csrfToken: () => csrfToken,
    // A person is waiting: two retries within 5 s, then the screen's own error and "Try again".
    retries: { retries: 2, maxWaitMs: 5_000, baseDelayMs: 300 },
  }));

type Method = (
  path: string,
  init: { params: { path?: unknown; query?: unknown }; body?: unknown },
) => Promise<{ data: unknown }>;

/** The query as the old hand-made URLs sent it: empty values left out. */
function queryOf(query: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

function toApiError(error: unknown): ApiError {
  if (error instanceof PlatformApiError) return new ApiError(error.status, error.code, error.message, error.details);
  return new ApiError(0, 'NETWORK', 'The portal cannot reach the server. Check your connection and try again.');
}

/** The session checks: their 401 means signed out (each guard handles it), not a session that just ended. */
const SESSION_CHECKS = new Set(['/portal/auth/session', '/portal/owner/session']);

/** Calls one route of a route table; resolves to its answer, rejects with ApiError. */
export async function call<S extends RouteSpec>(route: S, input: CallInput<S> = {}): Promise<Answer<S>> {
  // The route tables type the screens; @platform/client's own path types are the same routes (from /openapi.json).
  const method = client()[route.method.toUpperCase() as 'GET'] as unknown as Method;
  try {
    const { data } = await method(route.path, {
      params: { path: input.params, query: queryOf(input.query) },
      body: input.body,
    });
    return data as Answer<S>;
  } catch (thrown) {
    const error = toApiError(thrown);
    // Only a missing session ends it: a wrong TOTP code or a used sign-in link are 401s too (AUTH.TOTP, AUTH.SIGN_IN_LINK).
    if (error.code === 'AUTH.SESSION_REQUIRED' && !SESSION_CHECKS.has(route.path)) onSessionEnded?.();
    throw error;
  }
}

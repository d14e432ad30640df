import { z } from 'zod';
import type { ErrorCode } from './errors';
import type { AccessRole, Permission, RouteOwner, UserPermission } from './permissions';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One operation. For a partner-facing one the gateway routes and authorises from it, services
 * validate with its schemas, and the OpenAPI document is generated from it: one source of truth.
 * One under /internal/ (see isInternalRoute) is a call between services, typed the same way.
 */
interface RouteSpecFields {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /portal/domains/{domainId} */
  path: string;
  service: RouteOwner;
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /**
   * The body is multipart/form-data (the spec's upload convention: the file in the field `asset`)
   * instead of JSON: `file` names the field holding the file, which may be up to maxFileBytes;
   * body describes the fields (the file's with uploadedFile()).
   */
  multipart?: { file: string; maxFileBytes: number };
  /**
   * How long the gateway waits for the service's answer, when this operation needs longer than the
   * gateway's default (UPSTREAM_TIMEOUT_MS): declared here, for this route alone.
   */
  upstreamTimeoutMs?: number;
  /** The success answer is a file of one of these media types (a download), not JSON. */
  download?: readonly string[];
  /** The download is sent as it is read (chunked): the gateway pipes it through instead of holding the whole answer. */
  streamed?: true;
  /** Whether a JSON body must be sent (defaults to true when body is set). */
  bodyRequired?: boolean;
  response: z.ZodType;
  /** The success status the handler answers with (reply(...)) and OpenAPI documents; default 200 (204: no body). */
  status?: 200 | 201 | 202 | 204;
  errors: ErrorCode[];
  /**
   * false: a write that takes no Idempotency-Key (see takesIdempotencyKey): the sign-in operations
   * that act on the session itself, whose answer is for that session alone.
   */
  idempotencyKey?: false;
  /**
   * An /internal route the gateway itself calls (for a public caller, with no partner): only a
   * token the gateway signed reaches it, where every other /internal route takes only the services'.
   * The gateway never routes /internal paths, so no partner's request can reach it.
   */
  internalCaller?: 'gateway';
}

/**
 * A partner's operation: an API key holding `permission`, or a signed-in portal user whose role
 * grants it, calls it (access defaults to 'partner').
 */
interface PartnerRouteSpec extends RouteSpecFields {
  access?: 'partner';
  permission: Permission | UserPermission;
  /** Only a signed-in portal user may call it: an API key gets 403 (key, team, template and settings management). */
  userOnly?: true;
  /** What a signed-in user needs besides `permission` (e.g. domains:delete); an API key needs `permission` only. */
  userPermission?: UserPermission;
  /** After a 2xx answer the gateway records this audit event, naming the caller (user or key) and the path's ids. */
  audit?: AuditKind;
}

/** What the audit log records (GET /portal/audit-events `kind`). */
export const AUDIT_KINDS = [
  'session.signed_in',
  'user.invited',
  'user.updated',
  'user.removed',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'domain.deleted',
  'domain.deactivated',
  'email_template.updated',
  'email_template.reset',
  'settings.updated',
  'access_user.invited',
  'access_user.provisioned',
  'access_user.updated',
  'access_user.removed',
  // The owner console's changes to the customer's property (widget) and company.
  'property.updated',
  'company.updated',
  // The owner console's work on a data subject request (status, extension, note).
  'data_request.updated',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * A public operation (the widget's, the JWKS): no API key; the gateway rate limits it per client
 * address (and per property when its params have propertyId) and forwards it with a public token.
 * A route with a propertyId param answers only to an Origin on that property's hostname (or a
 * subdomain of it), with CORS headers for that origin alone.
 */
interface PublicRouteSpec extends RouteSpecFields {
  access: 'public';
  permission?: undefined;
  userOnly?: undefined;
  userPermission?: undefined;
  audit?: undefined;
}

/**
 * A portal sign-in operation (/portal/auth/...): the gateway answers it itself (service 'gateway')
 * with no API key; each one says whether it needs a session (e.g. GET /portal/auth/session) or
 * none (asking for a sign-in link, redeeming it).
 */
interface SignInRouteSpec extends RouteSpecFields {
  access: 'sign-in';
  service: 'gateway';
  permission?: undefined;
  userOnly?: undefined;
  userPermission?: undefined;
  audit?: undefined;
}

/**
 * An owner console operation (/portal/owner/domains/{domainId}/..., /portal/owner/users...): only
 * an owner console session (cookie pp_owner_session, X-CSRF-Token on writes) whose access user
 * holds at least `ownerRole` (VIEWER < ADMIN < OWNER) calls it; the gateway answers it, acting for
 * the customer's partner on the customer's own domains only (another domain: 404).
 */
interface OwnerRouteSpec extends RouteSpecFields {
  access: 'owner';
  service: 'gateway';
  ownerRole: AccessRole;
  permission?: undefined;
  userOnly?: undefined;
  userPermission?: undefined;
  audit?: undefined;
}

export type RouteSpec = PartnerRouteSpec | PublicRouteSpec | SignInRouteSpec | OwnerRouteSpec;

/** Whether a route is called without an API key (see PublicRouteSpec). */
export const isPublicRoute = (spec: Pick<RouteSpec, 'access'>): boolean => spec.access === 'public';

/** Whether a route is the owner console's (see OwnerRouteSpec). */
export const isOwnerRoute = (spec: Pick<RouteSpec, 'access'>): boolean => spec.access === 'owner';

/** Whether a route is one of the portal's sign-in operations (see SignInRouteSpec). */
export const isSignInRoute = (spec: Pick<RouteSpec, 'access'>): boolean => spec.access === 'sign-in';

const KEYED_METHODS: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Whether a route takes an Idempotency-Key: every write under /portal (a service's, or the
 * gateway's own: keys, team, settings, TOTP enrolment) but the public ones and those marked
 * `idempotencyKey: false`.
 */
export const takesIdempotencyKey = (spec: Pick<RouteSpec, 'method' | 'access' | 'idempotencyKey'>): boolean =>
  KEYED_METHODS.has(spec.method) && !isPublicRoute(spec) && spec.idempotencyKey !== false;

/** The errors any route that takes a JSON body can answer (the body's validation, parsing, type and size). */
export const BODY_ERRORS: ErrorCode[] = [
  'VALIDATION.INVALID',
  'VALIDATION.MALFORMED_JSON',
  'REQUEST.UNSUPPORTED_MEDIA_TYPE',
  'REQUEST.TOO_LARGE',
];

/**
 * Declares one operation and keeps its literal types (operationId, schemas), so a service's
 * handlers are typed from it (see Handlers in libs/http).
 */
export const defineRoute = <const S extends RouteSpec>(spec: S): S => spec;

/** A call between services (path under /internal/): only services may call it, the gateway never routes it, OpenAPI never shows it. */
export const isInternalRoute = (spec: Pick<RouteSpec, 'path'>): boolean => spec.path.startsWith('/internal/');

/** One route of a table by its operationId, with its declared types (e.g. what a service client calls). */
export function routeOf<const R extends readonly RouteSpec[], K extends R[number]['operationId']>(
  routes: R,
  operationId: K,
): Extract<R[number], { operationId: K }> {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId} in this table`);
  return route as Extract<R[number], { operationId: K }>;
}

/** The zod output of a route's params, query or body (what a handler receives); undefined when the route has none. */
export type RouteInput<S extends RouteSpec, K extends 'params' | 'query' | 'body'> = S extends {
  [k in K]: infer T extends z.ZodType;
}
  ? z.output<T>
  : undefined;

/** What a route answers on success: the input type of its response schema. */
export type RouteResponse<S extends RouteSpec> = z.input<S['response']>;

export interface CompiledRoute {
  spec: RouteSpec;
  regex: RegExp;
  paramNames: string[];
}

/** Turns /portal/domains/{domainId} into a matcher; path params match one non-empty segment. */
export function compileRoute(spec: RouteSpec): CompiledRoute {
  const paramNames: string[] = [];
  const pattern = spec.path
    .split('/')
    .map((segment) => {
      const m = /^\{(\w+)\}$/.exec(segment);
      if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(m[1]);
      return '([^/]+)';
    })
    .join('/');
  return { spec, regex: new RegExp(`^${pattern}/?$`), paramNames };
}

export type RouteMatch =
  | { kind: 'match'; route: CompiledRoute; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

/** Literal segments win over parameters (e.g. /domains/bulk/... over /domains/{domainId}/...). */
export function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch {
  const candidates = routes.filter((r) => r.regex.test(path));
  if (candidates.length === 0) return { kind: 'not_found' };
  const sameMethod = candidates
    .filter((r) => r.spec.method === method.toLowerCase())
    .sort((a, b) => a.paramNames.length - b.paramNames.length);
  const route = sameMethod[0];
  if (!route) return { kind: 'method_not_allowed', allowed: [...new Set(candidates.map((r) => r.spec.method))] };
  const values = route.regex.exec(path)!.slice(1);
  const params: Record<string, string> = {};
  route.paramNames.forEach((name, i) => {
    params[name] = safeDecode(values[i]);
  });
  return { kind: 'match', route, params };
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

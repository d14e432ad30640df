import type { z } from 'zod';
import { InternalTokenMinter, type InternalCaller } from '@platform/auth';
import { ERROR_CATALOGUE, type ErrorCode, type RouteSpec, type ServiceName } from '@platform/contracts';
import type { Readable } from 'node:stream';
import {
  AppError,
  ServiceClient,
  type ServiceRequest,
  type ServiceResponse,
  type ServiceStreamResponse,
} from '@platform/http';
import {
  currentContext,
  injectTrace,
  inSpan,
  REQUEST_ID_HEADER,
  SpanKind,
  type Logger,
  type Tracer,
} from '@platform/observability';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const UNAVAILABLE = new Set([502, 503, 504]);

export interface ServiceCallerOptions {
  target: ServiceName;
  baseUrl: string;
  /** Signs with the services' key (issuer "services"), audience = target. */
  minter: InternalTokenMinter;
  logger: Logger;
  timeoutMs?: number;
  /** Extra tries for idempotent calls that found the target unavailable (default 2). */
  retries?: number;
  /** Each call in a client span whose traceparent the target continues; none when tracing is off. */
  tracer?: Tracer;
}

/** Whom a call acts for (a partner, or the calling service itself): named in the token the target verifies. */
export type CallAs = Pick<InternalCaller, 'partnerId' | 'keyId'>;

/** A route's params, query or body as sent on the wire (the input of its schema); absent when the route has none. */
type WireInput<S extends RouteSpec, K extends 'params' | 'query' | 'body'> = S extends {
  [k in K]: infer T extends z.ZodType;
}
  ? { [k in K]: z.input<T> }
  : { [k in K]?: never };

/** What a call of route S sends: whom it acts for, and the route's own params, query and body. */
export type CallRequest<S extends RouteSpec> = { as: CallAs } & WireInput<S, 'params'> &
  WireInput<S, 'query'> &
  WireInput<S, 'body'>;

/**
 * Calls another service on a partner's behalf: a short-lived internal token for the target, the
 * request id carried along, a deadline and breakers per target and per (partner, target) (ServiceClient), retries only
 * for idempotent methods, and the failure's cause kept in the log line.
 */
export class ServiceCaller {
  private readonly client: ServiceClient;

  constructor(private readonly options: ServiceCallerOptions) {
    this.client = new ServiceClient({
      name: options.target,
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 2_000,
    });
  }

  /**
   * Calls one route of the target's table: its method and path (params filled in), a token
   * carrying the route's permission, and its answer checked against the route's response schema.
   * The target's error envelope becomes the same AppError here; an unreachable, timed out or
   * broken target is 503 SERVICE.UNAVAILABLE. Only idempotent methods are retried.
   */
  async call<S extends RouteSpec>(spec: S, request: CallRequest<S>): Promise<z.output<S['response']>> {
    const { as, params, query, body } = request as {
      as: CallAs;
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
    };
    const caller: InternalCaller = {
      partnerId: as.partnerId,
      keyId: as.keyId,
      permissions: spec.permission ? [spec.permission] : [],
      requiredFields: [],
    };
    const path = `${fillPath(spec.path, params)}${queryString(query)}`;
    const req = {
      method: spec.method.toUpperCase(),
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // An operation that declares a longer deadline (reading a site, an export) gets it here too.
      ...(spec.upstreamTimeoutMs === undefined ? {} : { timeoutMs: spec.upstreamTimeoutMs }),
    };
    let res: ServiceResponse;
    try {
      res = await inSpan(this.options.tracer, this.spanOf(spec), async (span) => {
        const answer = await this.send(caller, req);
        span?.setAttribute('http.response.status_code', answer.status);
        return answer;
      });
    } catch {
      // Unreachable, timed out or its breaker open: the partner may retry.
      throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.target} service is unavailable; retry later.`);
    }
    return this.answer(spec, path, res);
  }

  /**
   * Calls a streamed download (a route with `streamed`): its body as it comes, to pipe on (never
   * retried: a body once flowing cannot be replayed). An error answer throws as call() does.
   */
  async stream<S extends RouteSpec>(spec: S, request: CallRequest<S>): Promise<Readable> {
    const { as, params, query } = request as {
      as: CallAs;
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
    };
    const caller: InternalCaller = {
      partnerId: as.partnerId,
      keyId: as.keyId,
      permissions: spec.permission ? [spec.permission] : [],
      requiredFields: [],
    };
    const path = `${fillPath(spec.path, params)}${queryString(query)}`;
    let res: ServiceStreamResponse;
    try {
      res = await this.client.stream({
        method: spec.method.toUpperCase() as 'GET',
        path,
        headers: this.headersFor(caller),
        partnerId: caller.partnerId,
        timeoutMs: spec.upstreamTimeoutMs,
      });
    } catch {
      throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.target} service is unavailable; retry later.`);
    }
    if (res.status === 200) return res.body;
    const body = Buffer.concat((await res.body.toArray()) as Buffer[]);
    this.answer(spec, path, { ...res, body, status: res.status >= 400 ? res.status : 502 });
    throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.target} service answered unreadably.`);
  }

  close() {
    return this.client.close();
  }

  private spanOf(spec: RouteSpec) {
    const method = spec.method.toUpperCase();
    return {
      name: `${method} ${spec.path}`,
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': method, 'http.route': spec.path, 'peer.service': this.options.target },
    };
  }

  private headersFor(caller: InternalCaller): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.minter.mint(caller, this.options.target)}`,
      accept: 'application/json',
    };
    const requestId = currentContext()?.requestId;
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    // traceparent of the active span (the call's client span), when tracing is on.
    injectTrace(headers);
    return headers;
  }

  private async send(caller: InternalCaller, req: Omit<ServiceRequest, 'headers'>): Promise<ServiceResponse> {
    const headers = this.headersFor(caller);
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const attempts = IDEMPOTENT.has(req.method) ? 1 + (this.options.retries ?? 2) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        // For the partner it acts for: that partner's time-outs and unavailable answers refuse only that partner.
        const res = await this.client.request({ ...req, headers, partnerId: caller.partnerId });
        if (!UNAVAILABLE.has(res.status) || attempt >= attempts) return res;
      } catch (err) {
        this.options.logger.warn(
          { target: this.options.target, path: req.path, attempt, err: (err as Error).cause ?? err },
          'call to service failed',
        );
        if (attempt >= attempts) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  private answer<S extends RouteSpec>(spec: S, path: string, res: ServiceResponse): z.output<S['response']> {
    const { target, logger } = this.options;
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      logger.error({ target, path, status: res.status, err }, 'service answered no JSON');
      throw new AppError('SERVICE.UNAVAILABLE', `The ${target} service answered unreadably.`);
    }
    if (res.status >= 400) throw upstreamError(body, target, res.headers['retry-after']);
    const parsed = spec.response.safeParse(body);
    if (!parsed.success) {
      logger.error(
        { target, path, operation: spec.operationId, issues: parsed.error.issues.slice(0, 5) },
        'service answer does not match its schema',
      );
      throw new AppError('SERVER.INTERNAL');
    }
    return parsed.data as z.output<S['response']>;
  }
}

/** /internal/merchants/by-merchant-id/{merchantId} with its params, each URL-encoded. */
function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`path parameter ${name} of ${path} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** ?a=1&b=x&b=y from a route's query (arrays repeat their key, as OpenAPI's form style; undefined values are left out). */
function queryString(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) search.append(key, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The target's error envelope as an AppError with the same code (and Retry-After); unknown codes become 503. */
function upstreamError(body: unknown, target: string, retryAfter: string | string[] | undefined): AppError {
  const error = (body as { error?: { code?: string; message?: string; data?: Record<string, unknown> } } | null)?.error;
  const code = error?.code;
  const headers: Record<string, string> = typeof retryAfter === 'string' ? { 'Retry-After': retryAfter } : {};
  if (code && Object.hasOwn(ERROR_CATALOGUE, code))
    return new AppError(code as ErrorCode, error?.message, error?.data, headers);
  return new AppError('SERVICE.UNAVAILABLE', `The ${target} service failed; retry later.`);
}

import type { z } from 'zod';
import { InternalTokenMinter, type InternalCaller } from '@platform/auth';
import { ERROR_CATALOGUE, type ErrorCode, type ServiceName } from '@platform/contracts';
import { AppError, ServiceClient, type ServiceRequest, type ServiceResponse } from '@platform/http';
import { currentContext, REQUEST_ID_HEADER, type Logger } from '@platform/observability';

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
}

/**
 * Calls another service on a partner's behalf: a short-lived internal token for the target, the
 * request id carried along, a deadline and a breaker per target (ServiceClient), retries only
 * for idempotent methods, and the failure's cause kept in the log line.
 */
export class ServiceCaller {
  private readonly client: ServiceClient;

  constructor(private readonly options: ServiceCallerOptions) {
    this.client = new ServiceClient({ name: options.target, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs ?? 2_000 });
  }

  async request(caller: InternalCaller, req: Omit<ServiceRequest, 'headers'> & { headers?: Record<string, string> }): Promise<ServiceResponse> {
    const headers: Record<string, string> = {
      ...req.headers,
      authorization: `Bearer ${this.options.minter.mint(caller, this.options.target)}`,
      accept: 'application/json',
    };
    const requestId = currentContext()?.requestId;
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (req.body !== undefined) headers['content-type'] ??= 'application/json';
    const attempts = IDEMPOTENT.has(req.method) ? 1 + (this.options.retries ?? 2) : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.client.request({ ...req, headers });
        if (!UNAVAILABLE.has(res.status) || attempt >= attempts) return res;
      } catch (err) {
        this.options.logger.warn({ target: this.options.target, path: req.path, attempt, err: (err as Error).cause ?? err }, 'call to service failed');
        if (attempt >= attempts) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }

  /** GET a JSON answer and parse it with its schema; the target's error envelope becomes the same AppError here. */
  getJson<S extends z.ZodType>(caller: InternalCaller, path: string, schema: S): Promise<z.output<S>> {
    return this.json(caller, { method: 'GET', path }, schema);
  }

  /** POST a JSON body and parse the answer like getJson (not retried: the target may have acted). */
  postJson<S extends z.ZodType>(caller: InternalCaller, path: string, body: unknown, schema: S): Promise<z.output<S>> {
    return this.json(caller, { method: 'POST', path, body: JSON.stringify(body) }, schema);
  }

  private async json<S extends z.ZodType>(caller: InternalCaller, req: Omit<ServiceRequest, 'headers'>, schema: S): Promise<z.output<S>> {
    const { path } = req;
    let res: ServiceResponse;
    try {
      res = await this.request(caller, req);
    } catch {
      // Unreachable, timed out or its breaker open: the partner may retry.
      throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.target} service is unavailable; retry later.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      this.options.logger.error({ target: this.options.target, path, status: res.status, err }, 'service answered no JSON');
      throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.target} service answered unreadably.`);
    }
    if (res.status >= 400) throw upstreamError(body, this.options.target);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      this.options.logger.error({ target: this.options.target, path, issues: parsed.error.issues.slice(0, 5) }, 'service answer does not match its schema');
      throw new AppError('SERVER.INTERNAL');
    }
    return parsed.data;
  }

  close() {
    return this.client.close();
  }
}

/** The target's error envelope as an AppError with the same code (unknown codes become 503). */
function upstreamError(body: unknown, target: string): AppError {
  const error = (body as { error?: { code?: string; message?: string; data?: Record<string, unknown> } }).error;
  const code = error?.code;
  if (code && Object.hasOwn(ERROR_CATALOGUE, code)) return new AppError(code as ErrorCode, error?.message, error?.data);
  return new AppError('SERVICE.UNAVAILABLE', `The ${target} service failed; retry later.`);
}

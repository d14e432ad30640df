import CircuitBreaker from 'opossum';
import { Pool, type Dispatcher } from 'undici';
import { AppError } from './errors';

export interface ServiceClientOptions {
  name: string;
  baseUrl: string;
  /** Deadline for one call, headers and body included. */
  timeoutMs?: number;
  connections?: number;
  breaker?: Partial<Pick<CircuitBreaker.Options, 'errorThresholdPercentage' | 'resetTimeout' | 'volumeThreshold' | 'rollingCountTimeout'>>;
}

export interface ServiceRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

class UpstreamFailure extends Error {}

/**
 * Calls another service over a keep-alive pool with a deadline and an opossum breaker.
 * Connection failures, time-outs and 5xx count against the breaker; when it is open the
 * call fails at once with 503 SERVICE.UNAVAILABLE instead of piling up.
 */
export class ServiceClient {
  private readonly pool: Pool;
  private readonly breaker: CircuitBreaker<[ServiceRequest], ServiceResponse>;

  constructor(readonly options: ServiceClientOptions) {
    const timeout = options.timeoutMs ?? 5_000;
    this.pool = new Pool(options.baseUrl, {
      connections: options.connections ?? 64,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    this.breaker = new CircuitBreaker((req: ServiceRequest) => this.send(req), {
      name: options.name,
      timeout,
      errorThresholdPercentage: 50,
      resetTimeout: 5_000,
      rollingCountTimeout: 10_000,
      volumeThreshold: 10,
      ...options.breaker,
    });
  }

  get isOpen() {
    return this.breaker.opened;
  }

  async request(req: ServiceRequest): Promise<ServiceResponse> {
    try {
      return await this.breaker.fire(req);
    } catch (err) {
      if (err instanceof UpstreamFailure && 'response' in err) return (err as UpstreamFailure & { response: ServiceResponse }).response;
      throw new AppError('SERVICE.UNAVAILABLE', `The ${this.options.name} service is unavailable; retry later.`);
    }
  }

  private async send(req: ServiceRequest): Promise<ServiceResponse> {
    const res = await this.pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
    const body = Buffer.from(await res.body.arrayBuffer());
    const response = { status: res.statusCode, headers: res.headers, body };
    // A 5xx still reaches the caller, but counts as a failure for the breaker.
    if (res.statusCode >= 500) throw Object.assign(new UpstreamFailure('upstream 5xx'), { response });
    return response;
  }

  async close() {
    this.breaker.shutdown();
    await this.pool.close();
  }
}

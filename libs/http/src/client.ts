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
 * Answers that say the upstream itself is unavailable. A 500 is not among them: it is one
 * request's bug (logged and counted by the caller), and letting it open the breaker would let one
 * partner's bad input take the service down for every partner.
 */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Calls another service over a keep-alive pool with a deadline and an opossum breaker.
 * Connection failures, time-outs and 502/503/504 count against the breaker; when it is open the
 * call fails at once with 503 SERVICE.UNAVAILABLE instead of piling up.
 */
export class ServiceClient {
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly breaker: CircuitBreaker<[() => Promise<ServiceResponse>], ServiceResponse>;

  constructor(readonly options: ServiceClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.pool = new Pool(options.baseUrl, {
      connections: options.connections ?? 64,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    this.breaker = new CircuitBreaker(
      async (send: () => Promise<ServiceResponse>) => {
        const response = await send();
        // An unavailable answer still reaches the caller, but counts as a failure for the breaker.
        if (UNAVAILABLE_STATUSES.has(response.status)) throw Object.assign(new UpstreamFailure('upstream unavailable'), { response });
        return response;
      },
      {
        name: options.name,
        timeout: this.timeoutMs,
        errorThresholdPercentage: 50,
        resetTimeout: 5_000,
        rollingCountTimeout: 10_000,
        volumeThreshold: 10,
        ...options.breaker,
      },
    );
  }

  get isOpen() {
    return this.breaker.opened;
  }

  request(req: ServiceRequest): Promise<ServiceResponse> {
    return this.fire(() => this.send(req, this.timeoutMs));
  }

  /**
   * For a write whose outcome matters after the caller stopped waiting (an idempotent request):
   * `answer` keeps the client's deadline and breaker, while the call itself may run up to
   * completionMs; `outcome` is the service's own answer whenever it arrives, or undefined when the
   * call never ran (breaker open) or failed without one (connection lost, completionMs passed).
   */
  requestWithOutcome(req: ServiceRequest, completionMs: number): { answer: Promise<ServiceResponse>; outcome: Promise<ServiceResponse | undefined> } {
    let outcome: Promise<ServiceResponse | undefined> = Promise.resolve(undefined);
    const answer = this.fire(() => {
      const sent = this.send(req, completionMs);
      outcome = sent.catch(() => undefined);
      return sent;
    });
    return { answer, outcome: answer.then(() => outcome, () => outcome) };
  }

  private async fire(send: () => Promise<ServiceResponse>): Promise<ServiceResponse> {
    try {
      return await this.breaker.fire(send);
    } catch (err) {
      if (err instanceof UpstreamFailure && 'response' in err) return (err as UpstreamFailure & { response: ServiceResponse }).response;
      // The cause (refused, timed out, breaker open) stays on the error for the caller's log line.
      throw Object.assign(new AppError('SERVICE.UNAVAILABLE', `The ${this.options.name} service is unavailable; retry later.`), { cause: err });
    }
  }

  private async send(req: ServiceRequest, timeoutMs: number): Promise<ServiceResponse> {
    const res = await this.pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body };
  }

  async close() {
    this.breaker.shutdown();
    await this.pool.close();
  }
}

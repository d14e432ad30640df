import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { Breaker, DEFAULT_BREAKER, KeyedBreakers, type BreakerSettings } from './breaker';
import {
  DeadlineExceeded,
  outcomeOfAnswer,
  outcomeOfError,
  verdictOf,
  type CallOutcome,
  type Verdict,
} from './breaker-rules';
import { AppError } from './errors';

export interface ServiceClientOptions {
  name: string;
  baseUrl: string;
  /** Deadline for one call, headers and body included. */
  timeoutMs?: number;
  connections?: number;
  /** The service's shared breaker: opens only when the service itself fails (see breaker-rules.ts). */
  breaker?: Partial<BreakerSettings>;
  /** Each partner's breaker for this service: opens on that partner's time-outs and unavailable answers, refusing only that partner. */
  partnerBreaker?: Partial<BreakerSettings>;
  /** Asked, on a connection of its own, whether the service is alive after a time-out it gave no other sign of life around (default /health/live). */
  livenessPath?: string;
  /** The clock the breakers count with (tests). */
  now?: () => number;
}

export interface ServiceRequest {
  method: Dispatcher.HttpMethod;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whom the call is for: its time-outs and unavailable answers count against this partner's breaker, not the shared one. */
  partnerId?: string;
  /** This call's deadline, when its operation declares another than the client's (e.g. an upload parsed and stored at once). */
  timeoutMs?: number;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** An answer whose body is read as it comes (a streamed download). */
export interface ServiceStreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** A liveness check gets this long at most: a process that cannot answer it in a second is failing. */
const LIVENESS_TIMEOUT_MS = 1_000;

/**
 * Calls another service over a keep-alive pool with a deadline and two kinds of breaker: the
 * service's shared one, which opens only when the service itself is failing (refused or reset
 * connections, answers not in our envelope, time-outs while it shows no sign of life), and one per
 * (partner, service), which opens on that partner's time-outs and 502/503/504 answers and refuses
 * only that partner. Open, either answers 503 SERVICE.UNAVAILABLE at once instead of piling up.
 * An answer in the envelope, whatever its status, reaches the caller as it is.
 */
export class ServiceClient {
  private readonly pool: Pool;
  /** The liveness check's own connection, so calls queued on the pool cannot delay it. */
  private readonly livenessPool: Pool;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly shared: Breaker;
  private readonly partners: KeyedBreakers;
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private liveness: Promise<boolean> | undefined;

  constructor(readonly options: ServiceClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.now = options.now ?? Date.now;
    const poolOptions = {
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    };
    this.pool = new Pool(options.baseUrl, { ...poolOptions, connections: options.connections ?? 64 });
    this.livenessPool = new Pool(options.baseUrl, { ...poolOptions, connections: 1 });
    this.shared = new Breaker({ ...DEFAULT_BREAKER, ...options.breaker }, this.now);
    this.partners = new KeyedBreakers({ ...DEFAULT_BREAKER, ...options.partnerBreaker }, this.now);
  }

  /** The shared breaker is open: the service is failing, every partner is refused. */
  get isOpen() {
    return this.shared.opened;
  }

  /** This partner's breaker for the service is open: only this partner is refused. */
  isOpenFor(partnerId: string) {
    return this.partners.isOpen(partnerId);
  }

  request(req: ServiceRequest): Promise<ServiceResponse> {
    return this.fire(req, () => this.send(req, req.timeoutMs ?? this.timeoutMs));
  }

  /**
   * A call whose answer's body is read as it comes (a streamed download): the deadline and the
   * breakers count up to the answer's head; afterwards the body may take as long as it flows,
   * failing only when no piece arrives for the deadline (undici's bodyTimeout, between pieces).
   */
  stream(req: ServiceRequest): Promise<ServiceStreamResponse> {
    return this.fire(req, async () => {
      const timeoutMs = req.timeoutMs ?? this.timeoutMs;
      const res = await this.pool.request({ ...requestOf(req), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    });
  }

  /**
   * For a write whose outcome matters after the caller stopped waiting (an idempotent request):
   * `answer` keeps the client's deadline and breaker, while the call itself may run up to
   * completionMs; `outcome` is the service's own answer whenever it arrives, or undefined when the
   * call never ran (breaker open) or failed without one (connection lost, completionMs passed).
   */
  requestWithOutcome(
    req: ServiceRequest,
    completionMs: number,
  ): { answer: Promise<ServiceResponse>; outcome: Promise<ServiceResponse | undefined> } {
    let outcome: Promise<ServiceResponse | undefined> = Promise.resolve(undefined);
    const answer = this.fire(req, () => {
      const sent = this.send(req, completionMs);
      outcome = sent.catch(() => undefined);
      return sent;
    });
    return {
      answer,
      outcome: answer.then(
        () => outcome,
        () => outcome,
      ),
    };
  }

  private async fire<T extends Omit<ServiceResponse, 'body'>>(req: ServiceRequest, send: () => Promise<T>): Promise<T> {
    const { name } = this.options;
    const partner = req.partnerId === undefined ? undefined : this.partners.get(req.partnerId);
    if (!this.shared.allows()) throw unavailable(`The ${name} service is unavailable; retry later.`, 'breaker open');
    if (partner && !partner.allows()) {
      this.shared.neutral();
      throw unavailable(
        `Your recent calls to the ${name} service timed out or found it unavailable; retry in a few seconds.`,
        'partner breaker open',
      );
    }
    const started = this.now();
    let response: T;
    try {
      response = await withDeadline(send(), req.timeoutMs ?? this.timeoutMs);
    } catch (err) {
      this.settle(outcomeOfError(err), started, partner);
      // The cause (refused, timed out) stays on the error for the caller's log line.
      throw unavailable(`The ${name} service is unavailable; retry later.`, err);
    }
    this.settle(outcomeOfAnswer(response.status, response.headers['content-type']), started, partner);
    return response;
  }

  /** Counts the outcome on both breakers by the rules; a time-out the service gave no sign of life around is checked first. */
  private settle(outcome: CallOutcome, started: number, partner: Breaker | undefined) {
    const verdict = verdictOf(outcome);
    if (verdict.service === 'ok') this.lastAnswerAt = this.now();
    if (partner) count(partner, verdict.partner);
    if (verdict.service !== 'unknown') return count(this.shared, verdict.service);
    // It answered other calls while this one waited: alive, and this call's slowness is its own.
    if (this.lastAnswerAt >= started) return this.shared.neutral();
    void this.checkLiveness().then((alive) => (alive ? this.shared.neutral() : this.shared.failure()));
  }

  /** One liveness check at a time, however many calls time out together. */
  private checkLiveness(): Promise<boolean> {
    return (this.liveness ??= this.askLiveness().finally(() => (this.liveness = undefined)));
  }

  private async askLiveness(): Promise<boolean> {
    const ms = Math.min(LIVENESS_TIMEOUT_MS, this.timeoutMs);
    try {
      const res = await withDeadline(
        this.send({ method: 'GET', path: this.options.livenessPath ?? '/health/live' }, ms, this.livenessPool),
        ms,
      );
      const alive = verdictOf(outcomeOfAnswer(res.status, res.headers['content-type'])).service === 'ok';
      if (alive) this.lastAnswerAt = this.now();
      return alive;
    } catch {
      return false;
    }
  }

  private async send(req: ServiceRequest, timeoutMs: number, pool = this.pool): Promise<ServiceResponse> {
    const res = await pool.request({
      ...requestOf(req),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body };
  }

  async close() {
    await Promise.all([this.pool.close(), this.livenessPool.close()]);
  }
}

const requestOf = (req: ServiceRequest) => ({
  method: req.method,
  path: req.path,
  headers: req.headers,
  body: req.body,
});

function count(breaker: Breaker, verdict: Verdict['service'] | Verdict['partner']) {
  if (verdict === 'ok') breaker.success();
  else if (verdict === 'failure') breaker.failure();
  else breaker.neutral();
}

const unavailable = (message: string, cause: unknown) =>
  Object.assign(new AppError('SERVICE.UNAVAILABLE', message), { cause });

/** The promise, or DeadlineExceeded once ms have passed (the call itself ends by its own timeouts). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new DeadlineExceeded(ms)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

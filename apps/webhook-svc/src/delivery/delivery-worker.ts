import CircuitBreaker from 'opossum';
import type { ClientConfig } from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Kysely } from '@platform/db';
import { listen } from '@platform/db';
import type { Logger } from '@platform/observability';
import { OutboundError, type OutboundClient, type OutboundResponse } from '@platform/outbound';
import { claimDue, failDeliveries, recordAttempts, releaseDeliveries, type AttemptResult, type DeliveryWork } from '../db/deliveries.repository';
import type { WebhooksDb } from '../db/tables';
import { DUE_CHANNEL } from '../domain/context';
import { nextDelayMs, retryAfterMs, type RetryPolicy } from '../domain/retry-schedule';
import { signatureHeader, type SecretBox } from '../domain/secrets';

export interface DeliveryWorkerOptions {
  db: Kysely<WebhooksDb>;
  logger: Logger;
  secrets: SecretBox;
  outbound: OutboundClient;
  retry: RetryPolicy;
  /** A claimed delivery is this worker's until then; must outlast the total request deadline. */
  leaseMs: number;
  totalTimeoutMs: number;
  /** Sweep for due deliveries this often (NOTIFY wakes the worker sooner for API-queued ones). */
  pollMs: number;
  /** Attempts in flight at once: first attempts and retries have their own slots. */
  firstConcurrency: number;
  retryConcurrency: number;
  /** Attempts in flight to one endpoint; more wait in this worker (twice as many at most, then 5 s in the database). */
  endpointConcurrency: number;
  breaker: { volumeThreshold: number; errorThresholdPercentage: number; resetTimeoutMs: number };
  /** Connection settings for LISTEN (the pool's). */
  listen?: ClientConfig;
  registry: Registry;
}

/** Text the delivery log keeps of an answer. */
const LOGGED_BODY_BYTES = 20 * 1024;
const USER_AGENT = 'PrivacyWidget-Webhooks/1.0';
const FLUSH_MAX = 500;
/** Deliveries an endpoint at its cap may have held in memory, per allowed attempt in flight; more are handed back. */
const WAITING_PER_SLOT = 2;
const ENDPOINT_FULL_DELAY_MS = 5_000;
const CLAIM_BATCH = 100;

type Lane = 'first' | 'retry';
interface Held extends DeliveryWork {
  /** When this worker's lease ends (local clock); no attempt may start that could outlast it. */
  leaseEndsAt: number;
}

/** Thrown inside a breaker for an answer that says the endpoint is unwell (5xx, 429, no answer). */
class EndpointUnwell extends Error {
  constructor(readonly result: AttemptResult) {
    super('endpoint failed');
  }
}

/**
 * Sends deliveries. Work comes from two places: the fan-out consumer hands over fresh deliveries
 * it has already leased to this worker (no extra query, so the first attempt starts right after
 * commit), and a poller claims due ones with SKIP LOCKED (retries, API-queued sends, and anything
 * another worker leased and then lost). First attempts and retries have their own slots, so
 * retries never delay fresh events; each endpoint has a breaker (opossum) and a cap on attempts
 * in flight, so a slow or dead endpoint holds only its own deliveries back. Results are recorded
 * in batches; a delivery that is never recorded is claimed again once its lease ends.
 */
export class DeliveryWorker {
  private readonly queues: Record<Lane, Held[]> = { first: [], retry: [] };
  private readonly active: Record<Lane, number> = { first: 0, retry: 0 };
  /**
   * Whether due work may be waiting in the database beyond what the last claim took (a full batch
   * came back, or the fan-out left fresh deliveries unleased for lack of room): then a freed slot
   * claims more at once; otherwise the poll timer and NOTIFY do. Claiming after every attempt
   * would scan past every leased row each time.
   */
  private readonly backlog: Record<Lane, boolean> = { first: true, retry: true };
  private readonly perEndpoint = new Map<string, number>();
  /** Deliveries held for an endpoint at its cap, in order: each starts when one of its attempts ends. */
  private readonly waiting = new Map<string, { work: Held; lane: Lane }[]>();
  private readonly breakers = new Map<string, { breaker: CircuitBreaker<[() => Promise<AttemptResult>], AttemptResult>; usedAt: number }>();
  private readonly pending: { result: AttemptResult; recorded: () => void }[] = [];
  private flushing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private pollAgain = false;
  private stopped = true;
  private listener: { stop(): Promise<void> } | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private readonly log: Logger;
  private readonly metrics;

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.leaseMs <= options.totalTimeoutMs + 5_000) throw new Error('WEBHOOK_LEASE_MS must exceed WEBHOOK_TOTAL_TIMEOUT_MS by more than 5 s');
    this.log = options.logger.child({ component: 'delivery-worker' });
    const registers = [options.registry];
    this.metrics = {
      attempts: new Counter({ name: 'webhook_attempts_total', help: 'Delivery attempts by outcome (succeeded, failed) and lane', labelNames: ['outcome', 'lane'] as const, registers }),
      duration: new Histogram({ name: 'webhook_attempt_duration_seconds', help: 'Time from sending to the answer (or the failure)', buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15], registers }),
      deferred: new Counter({ name: 'webhook_deferred_total', help: 'Deliveries handed back unattempted, by reason (breaker_open, endpoint_busy, lease)', labelNames: ['reason'] as const, registers }),
      inflight: new Gauge({ name: 'webhook_attempts_in_flight', help: 'Attempts in flight by lane', labelNames: ['lane'] as const, registers }),
    };
  }

  start(): void {
    this.stopped = false;
    this.listener = listen(this.options.listen, DUE_CHANNEL, { onNotify: () => this.poll(), onUp: () => this.poll() }, this.log);
    const tick = () => {
      this.poll();
      this.pruneBreakers();
      this.pollTimer = setTimeout(tick, this.options.pollMs);
      this.pollTimer.unref();
    };
    tick();
  }

  /** Whether fresh deliveries may be leased to this worker now (the fan-out asks before it inserts). */
  hasRoom(): boolean {
    const room = !this.stopped && this.active.first + this.queues.first.length < this.options.firstConcurrency;
    // No room: the fan-out leaves them unleased, for a freed slot (of any worker) to claim.
    if (!room) this.backlog.first = true;
    return room;
  }

  /** Fresh deliveries the fan-out leased to this worker, committed: attempt them now. */
  accept(work: DeliveryWork[]): void {
    const leaseEndsAt = Date.now() + this.options.leaseMs;
    this.enqueue('first', work.map((w) => ({ ...w, leaseEndsAt })));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    await this.listener?.stop();
    // Not started yet: hand back at once so another worker sends them without waiting for the lease.
    const unsent = [...this.queues.first, ...this.queues.retry, ...[...this.waiting.values()].flat().map((w) => w.work)].map((w) => w.id);
    this.queues.first = [];
    this.queues.retry = [];
    this.waiting.clear();
    await releaseDeliveries(this.options.db, unsent, new Date()).catch((err: unknown) => this.log.warn({ err }, 'could not hand back queued deliveries; their leases will expire'));
    await Promise.allSettled([...this.inflight]);
    await this.flush();
    for (const { breaker } of this.breakers.values()) breaker.shutdown();
  }

  /** Claims due deliveries for every lane with free slots; again at once while batches come back full. */
  private poll(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    void (async () => {
      try {
        do {
          this.pollAgain = false;
          for (const lane of ['first', 'retry'] as const) {
            const capacity = lane === 'first' ? this.options.firstConcurrency : this.options.retryConcurrency;
            const free = capacity - this.active[lane] - this.queues[lane].length;
            if (free <= 0 || this.stopped) continue;
            const limit = Math.min(free, CLAIM_BATCH);
            const claimed = await claimDue(this.options.db, lane, limit, this.options.leaseMs);
            const leaseEndsAt = Date.now() + this.options.leaseMs;
            this.backlog[lane] = claimed.length === limit;
            this.enqueue(lane, claimed.map((w) => ({ ...w, leaseEndsAt })));
            if (claimed.length === limit) this.pollAgain = true;
          }
        } while (this.pollAgain && !this.stopped);
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'claiming due deliveries failed; retrying at the next poll');
      } finally {
        this.polling = false;
      }
    })();
  }

  private enqueue(lane: Lane, work: Held[]): void {
    if (work.length === 0) return;
    const disabled = work.filter((w) => !w.enabled);
    if (disabled.length > 0) void failDeliveries(this.options.db, disabled.map((w) => w.id)).catch((err: unknown) => this.log.warn({ err }, 'could not fail deliveries of a disabled endpoint'));
    this.queues[lane].push(...work.filter((w) => w.enabled));
    this.pump(lane);
  }

  private pump(lane: Lane): void {
    const capacity = lane === 'first' ? this.options.firstConcurrency : this.options.retryConcurrency;
    while (this.active[lane] < capacity && this.queues[lane].length > 0) {
      const work = this.queues[lane].shift()!;
      this.active[lane] += 1;
      this.metrics.inflight.set({ lane }, this.active[lane]);
      const run = this.send(work, lane).finally(() => {
        this.inflight.delete(run);
        this.active[lane] -= 1;
        this.metrics.inflight.set({ lane }, this.active[lane]);
        this.pump(lane);
        // A slot freed: claim more at once when due work is known to be waiting in the database.
        if (this.queues[lane].length === 0 && this.backlog[lane]) this.poll();
      });
      this.inflight.add(run);
    }
  }

  private async send(work: Held, lane: Lane): Promise<void> {
    if (Date.now() + this.options.totalTimeoutMs > work.leaseEndsAt) {
      // Could outlast the lease and race another worker: leave it to whoever claims it next.
      this.metrics.deferred.inc({ reason: 'lease' });
      return;
    }
    const busy = this.perEndpoint.get(work.endpoint_id) ?? 0;
    if (busy >= this.options.endpointConcurrency) {
      this.metrics.deferred.inc({ reason: 'endpoint_busy' });
      // Held here (its slot freed for other endpoints) rather than handed back to be claimed again
      // every second: a hanging endpoint would otherwise cost a write and a claim per delivery per second.
      const held = this.waiting.get(work.endpoint_id) ?? [];
      if (held.length < this.options.endpointConcurrency * WAITING_PER_SLOT) {
        held.push({ work, lane });
        this.waiting.set(work.endpoint_id, held);
      } else await this.release([work.id], ENDPOINT_FULL_DELAY_MS);
      return;
    }
    this.perEndpoint.set(work.endpoint_id, busy + 1);
    try {
      const result = await this.breakerFor(work.endpoint_id).fire(() => this.attempt(work));
      await this.record(result, lane);
    } catch (err) {
      if (err instanceof EndpointUnwell) await this.record(err.result, lane);
      else if ((err as { code?: string }).code === 'EOPENBREAKER') {
        this.metrics.deferred.inc({ reason: 'breaker_open' });
        await this.release([work.id], this.options.breaker.resetTimeoutMs);
      } else {
        this.log.error({ err, deliveryId: work.id }, 'delivery attempt failed unexpectedly; it will be claimed again after its lease');
      }
    } finally {
      const left = (this.perEndpoint.get(work.endpoint_id) ?? 1) - 1;
      if (left === 0) this.perEndpoint.delete(work.endpoint_id);
      else this.perEndpoint.set(work.endpoint_id, left);
      this.startWaiting(work.endpoint_id);
    }
  }

  /** An attempt to this endpoint ended: the next delivery held for it goes to the front of its lane. */
  private startWaiting(endpointId: string): void {
    const held = this.waiting.get(endpointId);
    const next = held?.shift();
    if (held?.length === 0) this.waiting.delete(endpointId);
    if (!next || this.stopped) return;
    this.queues[next.lane].unshift(next.work);
    this.pump(next.lane);
  }

  private release(ids: string[], delayMs: number): Promise<void> {
    return releaseDeliveries(this.options.db, ids, new Date(Date.now() + delayMs)).catch((err: unknown) => {
      this.log.warn({ err }, 'could not hand deliveries back; their leases will expire');
    });
  }

  /** One attempt; resolves with its result, or throws EndpointUnwell (counted by the breaker) with it. */
  private async attempt(work: Held): Promise<AttemptResult> {
    const secrets = [this.options.secrets.open(work.secret), ...(work.previous_secret ? [this.options.secrets.open(work.previous_secret)] : [])];
    const attemptedAt = new Date();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const body = Buffer.from(work.body, 'utf8');
    const started = performance.now();
    let response: OutboundResponse | undefined;
    let failure: OutboundError | undefined;
    try {
      response = await this.options.outbound.request({
        method: 'POST',
        url: work.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': work.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, work.id, timestamp, work.body),
        },
        body,
      });
    } catch (err) {
      failure = err instanceof OutboundError ? err : new OutboundError('connect', String(err));
    }
    const durationMs = response?.durationMs ?? performance.now() - started;
    this.metrics.duration.observe(durationMs / 1000);
    const status = response?.status ?? null;
    const ok = status !== null && status >= 200 && status < 300;
    const error = failure ? failure.kind : status !== null && status >= 300 && status < 400 ? 'redirect' : null;
    const result: AttemptResult = {
      deliveryId: work.id,
      endpointId: work.endpoint_id,
      attemptedAt,
      durationMs,
      statusCode: status,
      error,
      errorMessage: failure ? publicMessage(failure) : error === 'redirect' ? 'Redirects are not followed; register the final URL.' : null,
      responseBody: response ? loggedText(response.body) : null,
      responseTruncated: response ? response.truncated || response.body.length > LOGGED_BODY_BYTES : false,
      ok,
      ...this.outcome(work, ok, status, response),
    };
    // The breaker counts what says "this endpoint is unwell": no answer, 5xx, 429.
    if (!ok && (status === null || status >= 500 || status === 429)) throw new EndpointUnwell(result);
    return result;
  }

  private outcome(work: Held, ok: boolean, status: number | null, response?: OutboundResponse): Pick<AttemptResult, 'status' | 'nextAttemptAt'> {
    if (ok) return { status: 'succeeded', nextAttemptAt: null };
    if (status === 410 || work.final_attempt) return { status: 'failed', nextAttemptAt: null };
    const hint = status === 429 || status === 503 ? retryAfterMs(response?.headers['retry-after']) : undefined;
    const delay = nextDelayMs(this.options.retry, work.attempt_count + 1, hint);
    return delay === undefined ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: new Date(Date.now() + delay) };
  }

  private breakerFor(endpointId: string) {
    let entry = this.breakers.get(endpointId);
    if (!entry) {
      const { volumeThreshold, errorThresholdPercentage, resetTimeoutMs } = this.options.breaker;
      const breaker = new CircuitBreaker(async (attempt: () => Promise<AttemptResult>) => attempt(), {
        timeout: false, // the outbound client has its own deadlines
        volumeThreshold,
        errorThresholdPercentage,
        resetTimeout: resetTimeoutMs,
        rollingCountTimeout: 60_000,
        rollingCountBuckets: 6,
      });
      breaker.on('open', () => this.log.warn({ endpointId }, 'endpoint breaker opened: its deliveries wait'));
      entry = { breaker, usedAt: Date.now() };
      this.breakers.set(endpointId, entry);
    }
    entry.usedAt = Date.now();
    return entry.breaker;
  }

  /** Breakers of endpoints not seen for 10 minutes are forgotten (closed ones only). */
  private pruneBreakers(): void {
    const before = Date.now() - 10 * 60_000;
    for (const [id, entry] of this.breakers) {
      if (entry.usedAt < before && entry.breaker.closed) {
        entry.breaker.shutdown();
        this.breakers.delete(id);
      }
    }
  }

  /**
   * Buffers the result and resolves once it is written. The slot stays taken until then, so a
   * worker that dies has at most its concurrency in attempts sent but not recorded (the only
   * ones another worker sends again).
   */
  private record(result: AttemptResult, lane: Lane): Promise<void> {
    this.metrics.attempts.inc({ outcome: result.ok ? 'succeeded' : 'failed', lane });
    const recorded = new Promise<void>((resolve) => this.pending.push({ result, recorded: resolve }));
    // Group commit: results that arrive while a batch is being written go in the next one.
    if (this.pending.length >= FLUSH_MAX) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), 0);
    return recorded;
  }

  /** Writes the buffered results (one statement per batch); on failure they stay buffered and are retried. */
  private async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = recordAttempts(
      this.options.db,
      batch.map((p) => p.result),
    )
      .then(() => batch.forEach((p) => p.recorded()))
      .catch((err: unknown) => {
        this.log.warn({ err: (err as Error).message, results: batch.length }, 'recording attempts failed; retrying');
        this.pending.unshift(...batch);
        if (this.stopped) batch.forEach((p) => p.recorded());
        else this.flushTimer ??= setTimeout(() => void this.flush(), 1_000);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }
}

/** What the delivery log says about a failure: never an address the policy refused, or an internal name's lookup. */
function publicMessage(err: OutboundError): string {
  switch (err.kind) {
    case 'blocked_address':
      return 'The host is, or resolves to, an address that may not be contacted; nothing was sent.';
    case 'dns':
      return 'The host name did not resolve.';
    case 'timeout':
      return err.message.includes('connect') ? 'No connection within the connect deadline.' : 'No complete answer within the deadline.';
    default:
      return err.message.slice(0, 300);
  }
}

/** The first 20 KiB of an answer as text PostgreSQL can store (invalid UTF-8 becomes U+FFFD, NUL is dropped). */
function loggedText(body: Buffer): string {
  return body.subarray(0, LOGGED_BODY_BYTES).toString('utf8').replace(/\u0000/g, '');
}

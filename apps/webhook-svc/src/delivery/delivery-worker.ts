import type { ClientConfig } from 'pg';
import type { Registry } from 'prom-client';
import { listen, type Kysely, type Listener } from '@platform/db';
import type { Logger } from '@platform/observability';
import type { OutboundClient } from '@platform/outbound';
import {
  claimDueDeliveries,
  failDeliveries,
  releaseDeliveries,
  type DeliveryWork,
  type Lane,
} from '../db/deliveries.repository';
import { DUE_CHANNEL, type WebhooksDb } from '../db/tables';
import type { RetryPolicy } from '../domain/retry-schedule';
import type { SecretBox } from '../domain/secrets';
import { attemptDelivery } from './attempt';
import { EndpointBreakers, type BreakerSettings } from './endpoint-breakers';
import { EndpointSlots } from './endpoint-slots';
import { ResultWriter } from './result-writer';
import { workerMetrics, type WorkerMetrics } from './worker-metrics';

interface DeliveryWorkerOptions {
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
  breaker: BreakerSettings;
  /** Connection settings for LISTEN (the pool's). */
  listen?: ClientConfig;
  registry: Registry;
}

/** Deliveries an endpoint at its cap may have held in memory, per allowed attempt in flight; more are handed back. */
const WAITING_PER_SLOT = 2;
const ENDPOINT_FULL_DELAY_MS = 5_000;
const CLAIM_BATCH = 100;
const LANES = ['first', 'retry'] as const;

interface Held extends DeliveryWork {
  /** When this worker's lease ends (local clock); no attempt may start that could outlast it. */
  leaseEndsAt: number;
}

/**
 * Sends deliveries. Work comes from two places: the fan-out consumer hands over fresh deliveries
 * it has already leased to this worker (no extra query, so the first attempt starts right after
 * commit), and a poller claims due ones with SKIP LOCKED (retries, API-queued sends, and anything
 * another worker leased and then lost). First attempts and retries have their own slots, so
 * retries never delay fresh events; each endpoint has a breaker and a cap on attempts in flight
 * (endpoint-breakers.ts, endpoint-slots.ts). Results are written in batches (result-writer.ts); a
 * delivery that is never recorded is claimed again once its lease ends.
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
  private readonly slots: EndpointSlots<{ work: Held; lane: Lane }>;
  private readonly breakers: EndpointBreakers;
  private readonly writer: ResultWriter;
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private pollAgain = false;
  private stopped = true;
  /** The due time given to the last delivery handed back (ms since the epoch). */
  private lastHandedBackDue = 0;
  private listener: Listener | undefined;
  private readonly inflight = new Set<Promise<void>>();
  private readonly log: Logger;
  private readonly metrics: WorkerMetrics;

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.leaseMs <= options.totalTimeoutMs + 5_000)
      throw new Error('WEBHOOK_LEASE_MS must exceed WEBHOOK_TOTAL_TIMEOUT_MS by more than 5 s');
    this.log = options.logger.child({ component: 'delivery-worker' });
    this.metrics = workerMetrics(options.registry);
    this.slots = new EndpointSlots(options.endpointConcurrency, WAITING_PER_SLOT);
    this.breakers = new EndpointBreakers(options.breaker, this.log);
    this.writer = new ResultWriter(options.db, this.log, () => this.stopped);
  }

  start(): void {
    this.stopped = false;
    this.listener = listen(
      this.options.listen,
      DUE_CHANNEL,
      { onNotify: () => this.poll(), onUp: () => this.poll() },
      this.log,
    );
    const tick = () => {
      this.poll();
      this.breakers.prune();
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
    this.enqueue(
      'first',
      work.map((w) => ({ ...w, leaseEndsAt })),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    await this.listener?.stop();
    // Not started yet: hand back at once so another worker sends them without waiting for the lease.
    const unsent = [...this.queues.first, ...this.queues.retry, ...this.slots.drain().map((w) => w.work)].map(
      (w) => w.id,
    );
    this.queues.first = [];
    this.queues.retry = [];
    await releaseDeliveries(this.options.db, unsent, new Date()).catch((err: unknown) =>
      this.log.warn({ err }, 'could not hand back queued deliveries; their leases will expire'),
    );
    await Promise.allSettled([...this.inflight]);
    await this.writer.flush();
    this.breakers.shutdown();
  }

  private capacity(lane: Lane): number {
    return lane === 'first' ? this.options.firstConcurrency : this.options.retryConcurrency;
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
          for (const lane of LANES) await this.claim(lane);
        } while (this.pollAgain && !this.stopped);
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'claiming due deliveries failed; retrying at the next poll');
      } finally {
        this.polling = false;
      }
    })();
  }

  private async claim(lane: Lane): Promise<void> {
    const free = this.capacity(lane) - this.active[lane] - this.queues[lane].length;
    if (free <= 0 || this.stopped) return;
    const limit = Math.min(free, CLAIM_BATCH);
    const claimed = await claimDueDeliveries(this.options.db, lane, limit, this.options.leaseMs);
    const leaseEndsAt = Date.now() + this.options.leaseMs;
    this.backlog[lane] = claimed.length === limit;
    this.enqueue(
      lane,
      claimed.map((w) => ({ ...w, leaseEndsAt })),
    );
    if (claimed.length === limit) this.pollAgain = true;
  }

  private enqueue(lane: Lane, work: Held[]): void {
    if (work.length === 0) return;
    const disabled = work.filter((w) => !w.enabled);
    if (disabled.length > 0)
      void failDeliveries(
        this.options.db,
        disabled.map((w) => w.id),
      ).catch((err: unknown) => this.log.warn({ err }, 'could not fail deliveries of a disabled endpoint'));
    this.queues[lane].push(...work.filter((w) => w.enabled));
    this.pump(lane);
  }

  private pump(lane: Lane): void {
    while (this.active[lane] < this.capacity(lane) && this.queues[lane].length > 0) {
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
    const slot = this.slots.take(work.endpoint_id, { work, lane });
    if (slot !== 'started') {
      this.metrics.deferred.inc({ reason: 'endpoint_busy' });
      if (slot === 'full') await this.release([work.id], ENDPOINT_FULL_DELAY_MS);
      return;
    }
    try {
      await this.attempt(work, lane);
    } finally {
      this.startHeld(work.endpoint_id);
    }
  }

  /** One attempt through the endpoint's breaker; its result is recorded, or the delivery handed back while the breaker is open. */
  private async attempt(work: Held, lane: Lane): Promise<void> {
    const { outbound, secrets, retry } = this.options;
    const observeDuration = (ms: number) => this.metrics.duration.observe(ms / 1000);
    try {
      const result = await this.breakers.fire(work.endpoint_id, () =>
        attemptDelivery(work, { outbound, secrets, retry, observeDuration }),
      );
      if (result === 'open') {
        this.metrics.deferred.inc({ reason: 'breaker_open' });
        await this.release([work.id], this.options.breaker.resetTimeoutMs);
        return;
      }
      this.metrics.attempts.inc({ outcome: result.ok ? 'succeeded' : 'failed', lane });
      // The slot stays taken until the result is written, so a worker that dies has at most its
      // concurrency in attempts sent but not recorded (the only ones another worker sends again).
      await this.writer.record(result);
    } catch (err) {
      this.log.error(
        { err, deliveryId: work.id },
        'delivery attempt failed unexpectedly; it will be claimed again after its lease',
      );
    }
  }

  /** An attempt to this endpoint ended: the next delivery held for it goes to the front of its lane. */
  private startHeld(endpointId: string): void {
    const next = this.slots.release(endpointId);
    if (!next || this.stopped) return;
    this.queues[next.lane].unshift(next.work);
    this.pump(next.lane);
  }

  /**
   * When a handed-back delivery is due again: after the delay, and after the one handed back
   * before it, so deliveries handed back in one tick (an endpoint at its cap) are claimed again in
   * the order they came rather than in a tie the database breaks at random.
   */
  private dueAfter(delayMs: number): Date {
    this.lastHandedBackDue = Math.max(Date.now() + delayMs, this.lastHandedBackDue + 1);
    return new Date(this.lastHandedBackDue);
  }

  private release(ids: string[], delayMs: number): Promise<void> {
    return releaseDeliveries(this.options.db, ids, this.dueAfter(delayMs)).catch((err: unknown) => {
      this.log.warn({ err }, 'could not hand deliveries back; their leases will expire');
    });
  }
}

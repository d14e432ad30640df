import type { ClientConfig } from 'pg';
import type { Registry } from 'prom-client';
import type { LiveCount } from '@platform/coordination';
import type { Kysely } from '@platform/db';
import { LeaseWorker, type Held } from '@platform/jobs';
import type { Logger, Tracer } from '@platform/observability';
import type { OutboundClient } from '@platform/outbound';
import { DUE_CHANNEL } from '../db/deliveries.repository';
import type { WebhooksDb } from '../db/tables';
import type { RetryPolicy } from '../domain/retry-schedule';
import type { SecretBox } from '../domain/secrets';
import { attemptDelivery } from './attempt';
import {
  claimDueDeliveries,
  failDeliveries,
  releaseDeliveries,
  type DeliveryWork,
  type Lane,
} from './delivery-work.repository';
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
  /** The live delivering workers (REDIS_URL): endpointConcurrency is split across them. */
  workers?: LiveCount;
  breaker: BreakerSettings;
  /** Connection settings for LISTEN (the pool's). */
  listen?: ClientConfig;
  registry: Registry;
  /** Each attempt a client span (attempt.ts); none when tracing is off. */
  tracer?: Tracer;
}

/** Deliveries an endpoint at its cap may have held in memory, per allowed attempt in flight; more are handed back. */
const WAITING_PER_SLOT = 2;
const ENDPOINT_FULL_DELAY_MS = 5_000;

/**
 * Sends deliveries, on the one lease-claiming worker of libs/jobs (LeaseWorker). Work comes from
 * two places: the fan-out consumer hands over fresh deliveries it has already leased to this
 * worker (no extra query, so the first attempt starts right after commit), and the worker claims
 * due ones with SKIP LOCKED (retries, API-queued sends woken by NOTIFY, and anything another worker
 * leased and then lost). First attempts and retries are lanes with their own slots, so retries
 * never delay fresh events; each endpoint has a breaker and a cap on attempts in flight
 * (endpoint-breakers.ts, endpoint-slots.ts). Results are written in batches (result-writer.ts); a
 * delivery that is never recorded is claimed again once its lease ends.
 */
export class DeliveryWorker {
  private readonly worker: LeaseWorker<DeliveryWork, Lane>;
  private readonly slots: EndpointSlots<{ held: Held<DeliveryWork>; lane: Lane }>;
  private readonly breakers: EndpointBreakers;
  private readonly writer: ResultWriter;
  /** The due time given to the last delivery handed back (ms since the epoch). */
  private lastHandedBackDue = 0;
  private readonly log: Logger;
  private readonly metrics: WorkerMetrics;

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.leaseMs <= options.totalTimeoutMs + 5_000)
      throw new Error('WEBHOOK_LEASE_MS must exceed WEBHOOK_TOTAL_TIMEOUT_MS by more than 5 s');
    this.log = options.logger.child({ component: 'delivery-worker' });
    this.metrics = workerMetrics(options.registry);
    this.slots = new EndpointSlots(options.endpointConcurrency, WAITING_PER_SLOT, options.workers);
    this.breakers = new EndpointBreakers(options.breaker, this.log);
    this.writer = new ResultWriter(options.db, this.log, () => this.worker.isStopped);
    const lane = (name: Lane, concurrency: number) => ({
      concurrency,
      claim: (limit: number) => this.claim(name, limit),
    });
    this.worker = new LeaseWorker<DeliveryWork, Lane>({
      name: 'delivery worker',
      logger: this.log,
      lanes: { first: lane('first', options.firstConcurrency), retry: lane('retry', options.retryConcurrency) },
      run: (held, laneName) => this.send(held, laneName),
      leaseMs: options.leaseMs,
      maxRunMs: options.totalTimeoutMs,
      pollMs: options.pollMs,
      listen: { channel: DUE_CHANNEL, connection: options.listen },
      // Not started yet: handed back at once so another worker sends them without waiting for the lease.
      handBack: (work) =>
        releaseDeliveries(
          options.db,
          work.map((w) => w.id),
          new Date(),
        ),
      onPoll: () => this.breakers.prune(),
      onLeaseTooShort: () => this.metrics.deferred.inc({ reason: 'lease' }),
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Whether fresh deliveries may be leased to this worker now (the fan-out asks before it inserts). */
  hasRoom(): boolean {
    return this.worker.hasRoom('first');
  }

  /** Fresh deliveries the fan-out leased to this worker, committed: attempt them now. */
  accept(work: DeliveryWork[]): void {
    this.worker.accept('first', work);
  }

  async stop(): Promise<void> {
    // Held for a busy endpoint: handed back with the unstarted ones.
    const held = this.slots.drain().map((w) => w.held.item.id);
    await Promise.all([
      this.worker.stop(),
      releaseDeliveries(this.options.db, held, new Date()).catch((err: unknown) =>
        this.log.warn({ err }, 'could not hand back held deliveries; their leases will expire'),
      ),
    ]);
    await this.writer.flush();
    this.breakers.shutdown();
  }

  /** Due deliveries of a lane; those of an endpoint disabled meanwhile fail at once, unattempted. */
  private async claim(lane: Lane, limit: number): Promise<DeliveryWork[]> {
    const claimed = await claimDueDeliveries(this.options.db, lane, limit, this.options.leaseMs);
    const disabled = claimed.filter((w) => !w.enabled).map((w) => w.id);
    if (disabled.length > 0)
      void failDeliveries(this.options.db, disabled).catch((err: unknown) =>
        this.log.warn({ err }, 'could not fail deliveries of a disabled endpoint'),
      );
    return claimed.filter((w) => w.enabled);
  }

  private async send(held: Held<DeliveryWork>, lane: Lane): Promise<void> {
    const work = held.item;
    const slot = this.slots.take(work.endpoint_id, { held, lane });
    if (slot !== 'started') {
      this.metrics.deferred.inc({ reason: 'endpoint_busy' });
      if (slot === 'full') await this.release([work.id], ENDPOINT_FULL_DELAY_MS);
      return;
    }
    this.metrics.inflight.inc({ lane });
    try {
      await this.attempt(work, lane);
    } finally {
      this.metrics.inflight.dec({ lane });
      this.startHeld(work.endpoint_id);
    }
  }

  /** One attempt through the endpoint's breaker; its result is recorded, or the delivery handed back while the breaker is open. */
  private async attempt(work: DeliveryWork, lane: Lane): Promise<void> {
    const { outbound, secrets, retry } = this.options;
    const observeDuration = (ms: number) => this.metrics.duration.observe(ms / 1000);
    try {
      const result = await this.breakers.fire(work.endpoint_id, () =>
        attemptDelivery(work, { outbound, secrets, retry, observeDuration, tracer: this.options.tracer }),
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
    if (!next || this.worker.isStopped) return;
    this.worker.resume(next.lane, next.held);
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

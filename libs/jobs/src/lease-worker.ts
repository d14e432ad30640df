import type { ClientConfig } from 'pg';
import { listen, type Listener } from '@platform/db';
import type { Logger } from '@platform/observability';
import type { Clock } from './runner';

/** A claimed item while this worker holds it; its lease ends at leaseEndsAt (ms since the epoch, by the worker's clock). */
export interface Held<Item> {
  item: Item;
  leaseEndsAt: number;
}

/** One kind of due work with slots of its own (e.g. first attempts and retries), so one never waits behind the other. */
export interface LeaseLane<Item> {
  /** Items run at once in this lane. */
  concurrency: number;
  /** Claims up to `limit` due items for this worker, leased for the worker's leaseMs (claimWithLease). */
  claim(limit: number, now: Date): Promise<Item[]>;
}

export interface LeaseWorkerOptions<Item, L extends string> {
  /** Names the worker in logs and errors. */
  name: string;
  logger: Logger;
  lanes: Record<L, LeaseLane<Item>>;
  /** Runs one held item; `signal` aborts when the worker stops. Rejections are logged (the lease brings the item back). */
  run(held: Held<Item>, lane: L, signal: AbortSignal): Promise<void>;
  /** How long a claim holds an item. */
  leaseMs: number;
  /** The longest a run may take: an item whose lease ends sooner is not started (whoever claims it next runs it). */
  maxRunMs: number;
  /** Claims again this often (a NOTIFY on the channel, and a freed slot while work is waiting, claim sooner). */
  pollMs: number;
  /** LISTEN on this channel, on a connection of its own (none: polling only). */
  listen?: { channel: string; connection: ClientConfig | undefined };
  /** Claimed items not started when the worker stops, handed back so another worker takes them at once. */
  handBack?(items: Item[]): Promise<void>;
  /** Called at every poll (housekeeping, e.g. forgetting idle breakers). */
  onPoll?(): void;
  /** An item was not started because its lease would end before the run could (metrics). */
  onLeaseTooShort?(item: Item): void;
  clock?: Clock;
  /** Most items one claim takes (default 100). */
  claimBatch?: number;
}

const systemClock: Clock = { now: () => new Date() };

/**
 * The one shape of a worker that runs due rows (webhook deliveries, site scans): it claims them
 * with claimWithLease (FOR UPDATE SKIP LOCKED + a lease, so workers never take each other's rows
 * and a dead worker's rows come back when their lease ends) into each lane's free slots, when a
 * NOTIFY on its channel says work is due, every pollMs, and at once when a slot frees while a
 * full claim said more is waiting. Items leased elsewhere (a consumer's transaction) are handed
 * in with accept(). stop() hands back what has not started, aborts the runs' signal and waits.
 */
export class LeaseWorker<Item, L extends string = string> {
  private readonly lanes: L[];
  private readonly queues = {} as Record<L, Held<Item>[]>;
  private readonly active = {} as Record<L, number>;
  /** Whether due work may be waiting beyond the last claim: then a freed slot claims at once (else the timer and NOTIFY do). */
  private readonly backlog = {} as Record<L, boolean>;
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly clock: Clock;
  private stopped = true;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private listener: Listener | undefined;

  constructor(private readonly options: LeaseWorkerOptions<Item, L>) {
    if (options.leaseMs <= options.maxRunMs) throw new Error(`${options.name}: the lease must outlast the longest run`);
    this.lanes = Object.keys(options.lanes) as L[];
    for (const lane of this.lanes) {
      this.queues[lane] = [];
      this.active[lane] = 0;
      this.backlog[lane] = true;
    }
    this.clock = options.clock ?? systemClock;
  }

  start(): void {
    this.stopped = false;
    const { listen: channel, logger, pollMs } = this.options;
    if (channel) {
      const wake = () => this.poll();
      this.listener = listen(channel.connection, channel.channel, { onNotify: wake, onUp: wake }, logger);
    }
    const tick = () => {
      this.poll();
      this.options.onPoll?.();
      this.timer = setTimeout(tick, pollMs);
      this.timer.unref();
    };
    tick();
  }

  /** Whether the lane can start more now; when it cannot, the next freed slot claims (the caller leaves its rows unleased). */
  hasRoom(lane: L): boolean {
    const room = !this.stopped && this.active[lane] + this.queues[lane].length < this.options.lanes[lane].concurrency;
    if (!room) this.backlog[lane] = true;
    return room;
  }

  /** Items leased to this worker elsewhere (e.g. in a consumer's transaction), committed: run them now. */
  accept(lane: L, items: Item[]): void {
    this.enqueue(lane, this.hold(items));
  }

  /** An item this worker holds and put aside (e.g. while its endpoint was busy) goes to the front of its lane. */
  resume(lane: L, held: Held<Item>): void {
    this.queues[lane].unshift(held);
    this.pump(lane);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Items running now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Waits until nothing runs (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopping.abort(new Error(`${this.options.name} stopping`));
    await this.listener?.stop();
    await this.polling;
    const unstarted = this.lanes.flatMap((lane) => this.queues[lane].splice(0)).map((held) => held.item);
    if (unstarted.length > 0 && this.options.handBack)
      await this.options
        .handBack(unstarted)
        .catch((err: unknown) =>
          this.options.logger.warn({ err }, 'could not hand back claimed work; its leases will expire'),
        );
    await Promise.allSettled([...this.running]);
  }

  private hold(items: Item[]): Held<Item>[] {
    const leaseEndsAt = this.clock.now().getTime() + this.options.leaseMs;
    return items.map((item) => ({ item, leaseEndsAt }));
  }

  /** Claims for every lane with free slots; again at once while claims come back full. */
  private poll(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = (async () => {
      try {
        do {
          this.pollAgain = false;
          for (const lane of this.lanes) await this.claim(lane);
        } while (this.pollAgain && !this.stopped);
      } catch (err) {
        this.options.logger.warn(
          { err: (err as Error).message },
          'claiming due work failed; retrying at the next poll',
        );
      } finally {
        this.polling = undefined;
      }
    })();
  }

  private async claim(lane: L): Promise<void> {
    const { concurrency, claim } = this.options.lanes[lane];
    const free = concurrency - this.active[lane] - this.queues[lane].length;
    if (free <= 0 || this.stopped) return;
    const limit = Math.min(free, this.options.claimBatch ?? 100);
    const claimed = await claim(limit, this.clock.now());
    this.backlog[lane] = claimed.length === limit;
    this.enqueue(lane, this.hold(claimed));
    if (claimed.length === limit) this.pollAgain = true;
  }

  private enqueue(lane: L, held: Held<Item>[]): void {
    if (held.length === 0) return;
    this.queues[lane].push(...held);
    this.pump(lane);
  }

  private pump(lane: L): void {
    const { concurrency } = this.options.lanes[lane];
    while (!this.stopped && this.active[lane] < concurrency && this.queues[lane].length > 0) {
      const held = this.queues[lane].shift()!;
      this.active[lane] += 1;
      const run: Promise<void> = this.runOne(held, lane).finally(() => {
        this.running.delete(run);
        this.active[lane] -= 1;
        this.pump(lane);
        // A slot freed: claim more at once when due work is known to be waiting in the database.
        if (this.queues[lane].length === 0 && this.backlog[lane]) this.poll();
      });
      this.running.add(run);
    }
  }

  private async runOne(held: Held<Item>, lane: L): Promise<void> {
    if (this.clock.now().getTime() + this.options.maxRunMs > held.leaseEndsAt) {
      // Could outlast the lease and race another worker: left to whoever claims it next.
      this.options.onLeaseTooShort?.(held.item);
      return;
    }
    try {
      await this.options.run(held, lane, this.stopping.signal);
    } catch (err) {
      this.options.logger.error({ err }, 'a claimed item failed; it is claimed again after its lease');
    }
  }
}

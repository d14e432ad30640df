import { shareOf, type LiveCount } from '@platform/coordination';

/** What the gateway does for one partner's calls to one service (its lane). */
export interface FairShareSettings {
  /**
   * The weight of one partner's calls in flight to one service that is always its own (a call
   * weighs what its rows cost: a read 1, a 100-row page 10); more borrow or wait in its own queue.
   */
  maxInFlight: number;
  /**
   * The weight in flight to one service, all partners together, up to which a partner past its own
   * share may borrow while no other partner waits (at least maxInFlight; equal to it: no borrowing).
   */
  serviceMaxInFlight: number;
  /** Calls that may wait in one lane's queue; one more is refused at once. */
  maxQueued: number;
  /** How long a call may wait in the queue before it is refused. */
  queueTimeoutMs: number;
}

interface Waiter {
  grant(admitted: boolean): void;
  deadline: number;
  weight: number;
}

interface Lane {
  service: Service;
  /** The weight of the lane's calls in flight (its own share and what it borrowed). */
  inFlight: number;
  /** First come, first served: deadlines only grow along it (one timeout for all). */
  queue: Waiter[];
  /** One timer per lane, for the head of the queue (a timer per waiting call costs the hot path). */
  timer?: NodeJS.Timeout;
}

interface Service {
  name: string;
  inFlight: number;
  /** Lanes of the service with calls waiting. */
  waiting: Set<Lane>;
  lanes: number;
}

/**
 * A fair share of each service per partner, with a first-come queue and a deadline behind it: a
 * partner's flood waits in its own line instead of in front of the service, where every partner's
 * calls would queue behind it. Calls are weighed by what they cost the service, so a flood of
 * 100-row pages holds one page in flight where reads would hold eight (a call heavier than the
 * share goes alone). The share is work-conserving: a partner past it may borrow up to the
 * service's cap while no other partner waits, so a partner alone is not held back by a line no one
 * else needs; another partner's calls within its own share never wait for borrowed ones. Under the
 * share, admission is synchronous (no promise, no timer). Lanes and services are dropped once idle.
 * With replicas (gateways sharing limits through Redis), the caps are split across the live ones,
 * ceil(cap / count) each, so together they give a partner what one gateway would; recomputed when
 * the count changes (a gateway gone: the others admit more of their waiting calls at once).
 */
export class FairShare {
  private readonly lanes = new Map<string, Lane>();
  private readonly services = new Map<string, Service>();
  private caps: { maxInFlight: number; serviceMaxInFlight: number; maxQueued: number };

  constructor(
    private readonly settings: FairShareSettings,
    replicas?: LiveCount,
  ) {
    this.caps = this.capsFor(replicas);
    replicas?.onChange(() => {
      this.caps = this.capsFor(replicas);
      for (const lane of this.lanes.values()) this.admitWaiting(lane);
    });
  }

  /** This gateway's caps: the configured ones, split across the live gateways. */
  private capsFor(replicas: LiveCount | undefined) {
    return {
      maxInFlight: shareOf(this.settings.maxInFlight, replicas),
      serviceMaxInFlight: shareOf(this.settings.serviceMaxInFlight, replicas),
      maxQueued: shareOf(this.settings.maxQueued, replicas),
    };
  }

  /** The caps this gateway applies now (for tests and metrics). */
  get limits(): { maxInFlight: number; serviceMaxInFlight: number; maxQueued: number } {
    return this.caps;
  }

  /** Takes a slot of `weight` in the lane (a partner's calls to `service`) when it may; false when the call must wait (see wait). */
  tryAcquire(lane: string, weight = 1, service = ''): boolean {
    const found = this.lanes.get(lane) ?? this.openLane(lane, service);
    if (found.queue.length > 0 || !this.admits(found, weight)) return false;
    this.take(found, weight);
    return true;
  }

  /**
   * Waits for a slot after tryAcquire said no: true once it holds one (release it afterwards with
   * the same weight), false when the queue is full or the deadline passed first (it holds none).
   */
  wait(lane: string, weight = 1, service = ''): Promise<boolean> {
    const found = this.lanes.get(lane);
    if (!found) return Promise.resolve(this.tryAcquire(lane, weight, service));
    if (found.queue.length >= this.caps.maxQueued) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      found.queue.push({ grant: resolve, deadline: Date.now() + this.settings.queueTimeoutMs, weight });
      found.service.waiting.add(found);
      found.timer ??= this.expireLater(found);
    });
  }

  /** Gives the slot of `weight` back, then admits waiting calls, in order, as far as they may go. */
  release(lane: string, weight = 1): void {
    const found = this.lanes.get(lane);
    if (!found) return;
    found.inFlight -= weight;
    found.service.inFlight -= weight;
    this.admitWaiting(found);
    // Room freed at the service: the one other lane waiting may borrow it.
    const [other] = found.service.waiting.size === 1 ? found.service.waiting : [];
    if (other && other !== found) this.admitWaiting(other);
    this.closeIfIdle(lane, found);
  }

  /** Calls in flight (their weight) and waiting in a lane (for tests and metrics). */
  usage(lane: string): { inFlight: number; queued: number } {
    const found = this.lanes.get(lane);
    return { inFlight: found?.inFlight ?? 0, queued: found?.queue.length ?? 0 };
  }

  /** Within its own share (a lane with nothing in flight takes any call), or borrowing while no other lane waits. */
  private admits(lane: Lane, weight: number): boolean {
    if (lane.inFlight === 0 || lane.inFlight + weight <= this.caps.maxInFlight) return true;
    const { waiting, inFlight } = lane.service;
    const othersWait = waiting.size > 1 || (waiting.size === 1 && !waiting.has(lane));
    return !othersWait && inFlight + weight <= this.caps.serviceMaxInFlight;
  }

  private take(lane: Lane, weight: number) {
    lane.inFlight += weight;
    lane.service.inFlight += weight;
  }

  /** Admits waiting calls from the head while they may go (first come, first served: none overtakes the head). */
  private admitWaiting(lane: Lane) {
    while (lane.queue.length > 0 && this.admits(lane, lane.queue[0].weight)) {
      const next = lane.queue.shift()!;
      this.take(lane, next.weight);
      next.grant(true);
    }
    if (lane.queue.length === 0) lane.service.waiting.delete(lane);
  }

  /** Refuses the waiters whose deadline has passed once the head's comes, then waits for the next head. */
  private expireLater(lane: Lane): NodeJS.Timeout {
    const head = lane.queue[0];
    return setTimeout(
      () => {
        const now = Date.now();
        while (lane.queue.length > 0 && lane.queue[0].deadline <= now) lane.queue.shift()!.grant(false);
        // A heavy call refused at the head may leave room for the lighter ones behind it.
        this.admitWaiting(lane);
        lane.timer = lane.queue.length > 0 ? this.expireLater(lane) : undefined;
      },
      Math.max(0, head.deadline - Date.now()),
    );
  }

  private openLane(name: string, serviceName: string): Lane {
    let service = this.services.get(serviceName);
    if (!service)
      this.services.set(serviceName, (service = { name: serviceName, inFlight: 0, waiting: new Set(), lanes: 0 }));
    service.lanes++;
    const lane: Lane = { service, inFlight: 0, queue: [] };
    this.lanes.set(name, lane);
    return lane;
  }

  private closeIfIdle(name: string, lane: Lane) {
    if (lane.inFlight > 0 || lane.queue.length > 0) return;
    clearTimeout(lane.timer);
    this.lanes.delete(name);
    if (--lane.service.lanes === 0) this.services.delete(lane.service.name);
  }
}

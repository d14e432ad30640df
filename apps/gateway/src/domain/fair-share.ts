import { shareOf, type LiveCount } from '@platform/coordination';

/** What the gateway does for one partner's calls to one service (its lane). */
export interface FairShareSettings {
  /** Calls of one partner in flight to one service at once; more wait in the partner's own queue. */
  maxInFlight: number;
  /** Calls that may wait in one lane's queue; one more is refused at once. */
  maxQueued: number;
  /** How long a call may wait in the queue before it is refused. */
  queueTimeoutMs: number;
}

interface Waiter {
  grant(admitted: boolean): void;
  deadline: number;
}

interface Lane {
  inFlight: number;
  /** First come, first served: deadlines only grow along it (one timeout for all). */
  queue: Waiter[];
  /** One timer per lane, for the head of the queue (a timer per waiting call costs the hot path). */
  timer?: NodeJS.Timeout;
}

/**
 * A cap on each partner's calls in flight per service, with a first-come queue and a deadline
 * behind it: a partner's flood waits in its own line instead of in front of the service, where
 * every partner's calls would queue behind it. Under the cap, admission is synchronous (no
 * promise, no timer). A lane is dropped once it is idle, so memory follows the partners in flight.
 * With replicas (gateways sharing limits through Redis), the caps are split across the live ones,
 * ceil(cap / count) each, so together they give a partner what one gateway would; recomputed when
 * the count changes (a gateway gone: the others admit more of their waiting calls at once).
 */
export class FairShare {
  private readonly lanes = new Map<string, Lane>();
  private caps: { maxInFlight: number; maxQueued: number };

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
      maxQueued: shareOf(this.settings.maxQueued, replicas),
    };
  }

  /** The caps this gateway applies now (for tests and metrics). */
  get limits(): { maxInFlight: number; maxQueued: number } {
    return this.caps;
  }

  private admitWaiting(lane: Lane) {
    while (lane.queue.length > 0 && lane.inFlight < this.caps.maxInFlight) {
      lane.inFlight++;
      lane.queue.shift()!.grant(true);
    }
  }

  /** Takes a slot when one is free; false when the call must wait (see wait). */
  tryAcquire(lane: string): boolean {
    const found = this.lanes.get(lane);
    if (!found) {
      this.lanes.set(lane, { inFlight: 1, queue: [] });
      return true;
    }
    if (found.inFlight < this.caps.maxInFlight) {
      found.inFlight++;
      return true;
    }
    return false;
  }

  /**
   * Waits for a slot after tryAcquire said no: true once it holds one (release it afterwards),
   * false when the queue is full or the deadline passed first (it holds none).
   */
  wait(lane: string): Promise<boolean> {
    const found = this.lanes.get(lane);
    if (!found) return Promise.resolve(this.tryAcquire(lane));
    if (found.queue.length >= this.caps.maxQueued) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      found.queue.push({ grant: resolve, deadline: Date.now() + this.settings.queueTimeoutMs });
      found.timer ??= this.expireLater(found);
    });
  }

  /** Refuses the waiters whose deadline has passed once the head's comes, then waits for the next head. */
  private expireLater(lane: Lane): NodeJS.Timeout {
    const head = lane.queue[0];
    return setTimeout(
      () => {
        const now = Date.now();
        while (lane.queue.length > 0 && lane.queue[0].deadline <= now) lane.queue.shift()!.grant(false);
        lane.timer = lane.queue.length > 0 ? this.expireLater(lane) : undefined;
      },
      Math.max(0, head.deadline - Date.now()),
    );
  }

  /** Gives the slot back: to the next call waiting in the lane, if any. */
  release(lane: string): void {
    const found = this.lanes.get(lane);
    if (!found) return;
    // Over a cap that shrank (a gateway joined), the slot is not passed on.
    const next = found.inFlight <= this.caps.maxInFlight ? found.queue.shift() : undefined;
    if (next) return next.grant(true);
    if (--found.inFlight > 0) return;
    clearTimeout(found.timer);
    this.lanes.delete(lane);
  }

  /** Calls in flight and waiting in a lane (for tests and metrics). */
  usage(lane: string): { inFlight: number; queued: number } {
    const found = this.lanes.get(lane);
    return { inFlight: found?.inFlight ?? 0, queued: found?.queue.length ?? 0 };
  }
}

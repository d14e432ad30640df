/** What the gateway does for one partner's calls to one service (its lane). */
export interface FairShareSettings {
  /**
   * Weight of one partner's calls in flight to one service at once (a call weighs what it costs
   * against the rate limit: a read 1, a 100-row page 10); more wait in the partner's own queue.
   */
  maxInFlight: number;
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
  /** The weight of the calls in flight. */
  inFlight: number;
  /** First come, first served: deadlines only grow along it (one timeout for all). */
  queue: Waiter[];
  /** One timer per lane, for the head of the queue (a timer per waiting call costs the hot path). */
  timer?: NodeJS.Timeout;
}

/**
 * A cap on the weight of each partner's calls in flight per service, with a first-come queue and
 * a deadline behind it: a partner's flood waits in its own line instead of in front of the
 * service, where every partner's calls would queue behind it. Calls are weighed by what they cost
 * the service, so a flood of 100-row pages holds one page in flight where reads would hold ten
 * (a call heavier than the cap goes alone). Under the cap, admission is synchronous (no promise,
 * no timer). A lane is dropped once it is idle, so memory follows the partners in flight.
 */
export class FairShare {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly settings: FairShareSettings) {}

  /** Takes a slot of `weight` when it fits and no call waits before it; false when the call must wait (see wait). */
  tryAcquire(lane: string, weight = 1): boolean {
    const found = this.lanes.get(lane);
    if (!found) {
      this.lanes.set(lane, { inFlight: weight, queue: [] });
      return true;
    }
    if (found.queue.length > 0 || !this.fits(found, weight)) return false;
    found.inFlight += weight;
    return true;
  }

  private fits(lane: Lane, weight: number) {
    return lane.inFlight === 0 || lane.inFlight + weight <= this.settings.maxInFlight;
  }

  /**
   * Waits for a slot after tryAcquire said no: true once it holds one (release it afterwards with
   * the same weight), false when the queue is full or the deadline passed first (it holds none).
   */
  wait(lane: string, weight = 1): Promise<boolean> {
    const found = this.lanes.get(lane);
    if (!found) return Promise.resolve(this.tryAcquire(lane, weight));
    if (found.queue.length >= this.settings.maxQueued) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      found.queue.push({ grant: resolve, deadline: Date.now() + this.settings.queueTimeoutMs, weight });
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
        // A heavy call refused at the head may leave room for the lighter ones behind it.
        this.admitWaiting(lane);
        lane.timer = lane.queue.length > 0 ? this.expireLater(lane) : undefined;
      },
      Math.max(0, head.deadline - Date.now()),
    );
  }

  /** Gives the slot of `weight` back: to the calls waiting in the lane, in order, as far as they fit. */
  release(lane: string, weight = 1): void {
    const found = this.lanes.get(lane);
    if (!found) return;
    found.inFlight -= weight;
    this.admitWaiting(found);
    if (found.inFlight > 0 || found.queue.length > 0) return;
    clearTimeout(found.timer);
    this.lanes.delete(lane);
  }

  /** Admits waiting calls from the head while they fit (first come, first served: none overtakes the head). */
  private admitWaiting(lane: Lane) {
    while (lane.queue.length > 0 && this.fits(lane, lane.queue[0].weight)) {
      const next = lane.queue.shift()!;
      lane.inFlight += next.weight;
      next.grant(true);
    }
  }

  /** Calls in flight and waiting in a lane (for tests and metrics). */
  usage(lane: string): { inFlight: number; queued: number } {
    const found = this.lanes.get(lane);
    return { inFlight: found?.inFlight ?? 0, queued: found?.queue.length ?? 0 };
  }
}

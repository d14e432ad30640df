export interface BreakerSettings {
  /** Opens when at least this share of the calls in the window failed (and volumeThreshold calls were made). */
  errorThresholdPercentage: number;
  volumeThreshold: number;
  /** The rolling window the shares are counted over. */
  rollingCountTimeout: number;
  /** How long it stays open before one trial call may go through (half-open). */
  resetTimeout: number;
}

export const DEFAULT_BREAKER: BreakerSettings = {
  errorThresholdPercentage: 50,
  volumeThreshold: 10,
  rollingCountTimeout: 10_000,
  resetTimeout: 5_000,
};

const BUCKETS = 10;

interface Bucket {
  index: number;
  calls: number;
  failures: number;
}

/**
 * A circuit breaker that only counts what it is told: the caller decides which outcomes are the
 * guarded thing's failures (see breaker-rules.ts). No timers, so thousands of them (one per
 * partner and service) cost only their counters; the clock is injectable for tests.
 */
export class Breaker {
  private buckets: Bucket[] = [];
  private openedAt: number | undefined;
  private trialInFlight = false;

  constructor(
    private readonly settings: BreakerSettings = DEFAULT_BREAKER,
    private readonly now: () => number = Date.now,
  ) {}

  /** Open: refusing calls (a half-open trial in flight counts as open for everyone else). */
  get opened(): boolean {
    return this.openedAt !== undefined;
  }

  /** Whether a call may go now; after resetTimeout one trial call is let through, whose outcome closes or reopens it. */
  allows(): boolean {
    if (this.openedAt === undefined) return true;
    if (this.trialInFlight || this.now() - this.openedAt < this.settings.resetTimeout) return false;
    this.trialInFlight = true;
    return true;
  }

  success() {
    if (this.openedAt !== undefined) {
      if (!this.trialInFlight) return;
      this.close();
    }
    this.count(false);
  }

  failure() {
    if (this.openedAt !== undefined) {
      // The trial failed: open for another resetTimeout. Failures of calls from before it opened change nothing.
      if (this.trialInFlight) this.open();
      return;
    }
    this.count(true);
    const { calls, failures } = this.totals();
    if (calls >= this.settings.volumeThreshold && (failures / calls) * 100 >= this.settings.errorThresholdPercentage)
      this.open();
  }

  /** An outcome that says nothing about the guarded thing; it ends a half-open trial without deciding it. */
  neutral() {
    this.trialInFlight = false;
  }

  /** Closed, with no failures in its window: it may be forgotten. */
  get idle(): boolean {
    return this.openedAt === undefined && this.totals().failures === 0;
  }

  private open() {
    this.openedAt = this.now();
    this.trialInFlight = false;
    this.buckets = [];
  }

  private close() {
    this.openedAt = undefined;
    this.trialInFlight = false;
    this.buckets = [];
  }

  private count(failed: boolean) {
    const index = Math.floor(this.now() / (this.settings.rollingCountTimeout / BUCKETS));
    let bucket = this.buckets[this.buckets.length - 1];
    if (bucket?.index !== index) {
      bucket = { index, calls: 0, failures: 0 };
      this.buckets.push(bucket);
      if (this.buckets.length > BUCKETS) this.buckets.shift();
    }
    bucket.calls++;
    if (failed) bucket.failures++;
  }

  private totals() {
    const oldest = Math.floor(this.now() / (this.settings.rollingCountTimeout / BUCKETS)) - BUCKETS + 1;
    let calls = 0;
    let failures = 0;
    for (const b of this.buckets) {
      if (b.index < oldest) continue;
      calls += b.calls;
      failures += b.failures;
    }
    return { calls, failures };
  }
}

/** Above this many, idle breakers (closed, no failures in their window) are forgotten. */
const KEPT_BREAKERS = 10_000;

/** One breaker per key (a partner), made on first use; idle ones are forgotten when there are many. */
export class KeyedBreakers {
  private readonly breakers = new Map<string, Breaker>();

  constructor(
    private readonly settings: BreakerSettings = DEFAULT_BREAKER,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Breaker {
    let breaker = this.breakers.get(key);
    if (!breaker) {
      if (this.breakers.size >= KEPT_BREAKERS) this.forgetIdle();
      breaker = new Breaker(this.settings, this.now);
      this.breakers.set(key, breaker);
    }
    return breaker;
  }

  /** Whether this key's breaker is open now (without making one). */
  isOpen(key: string): boolean {
    return this.breakers.get(key)?.opened ?? false;
  }

  private forgetIdle() {
    for (const [key, breaker] of this.breakers) if (breaker.idle) this.breakers.delete(key);
  }
}

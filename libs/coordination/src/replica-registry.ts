import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Redis from 'ioredis';

/** How many processes of a role are alive now, and news when that changes. */
export interface LiveCount {
  /** Live processes of the role, this one included (at least 1); the last known while Redis is down. */
  readonly liveCount: number;
  onChange(listener: (count: number) => void): void;
}

export interface ReplicaRegistryOptions {
  keyPrefix: string;
  role: string;
  /** A process whose heartbeat is older than this is no longer counted. */
  ttlMs: number;
  /** Called with each heartbeat's outcome (the coordination's up/down state). */
  onBeat?: (ok: boolean, err?: unknown) => void;
  now?: () => number;
}

/**
 * Processes of one role that are alive, in one Redis sorted set: each heartbeats its id scored by
 * the time (ZADD), drops the ids older than the TTL (ZREMRANGEBYSCORE) and counts the rest (ZCARD),
 * in one MULTI, every third of the TTL. A process that stops beating is forgotten a TTL later
 * by whichever beats next; one that stops cleanly removes itself at once.
 */
export class ReplicaRegistry implements LiveCount {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private count = 1;
  private readonly listeners: ((count: number) => void)[] = [];
  private timer?: NodeJS.Timeout;
  private readonly key: string;
  private readonly now: () => number;

  constructor(
    private readonly redis: Redis,
    private readonly options: ReplicaRegistryOptions,
  ) {
    this.key = `${options.keyPrefix}replicas:${options.role}`;
    this.now = options.now ?? Date.now;
  }

  get liveCount(): number {
    return this.count;
  }

  onChange(listener: (count: number) => void): void {
    this.listeners.push(listener);
  }

  /** Beats every third of the TTL from now on (the caller beats first, once connected). */
  start(): void {
    this.timer = setInterval(() => void this.beat(), Math.max(10, Math.floor(this.options.ttlMs / 3)));
    this.timer.unref();
  }

  /** One heartbeat: this process is alive now; the count is updated (kept as it was when Redis does not answer). */
  async beat(): Promise<void> {
    const now = this.now();
    try {
      const results = await this.redis
        .multi()
        .zadd(this.key, now, this.id)
        .zremrangebyscore(this.key, '-inf', now - this.options.ttlMs)
        .zcard(this.key)
        .pexpire(this.key, this.options.ttlMs * 2)
        .exec();
      const counted = Number(results?.[2]?.[1] ?? 1);
      this.options.onBeat?.(true);
      this.set(Math.max(1, counted));
    } catch (err) {
      this.options.onBeat?.(false, err);
    }
  }

  /** Stops beating and leaves the set, so the others count one fewer at their next beat. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.zrem(this.key, this.id).catch(() => undefined);
  }

  private set(count: number) {
    if (count === this.count) return;
    this.count = count;
    for (const listener of this.listeners) listener(count);
  }
}

/** A configured cap split across the live processes: each takes ceil(cap / count), so together they give about the cap. */
export const shareOf = (cap: number, replicas: LiveCount | undefined) =>
  cap <= 0 ? 0 : Math.max(1, Math.ceil(cap / (replicas?.liveCount ?? 1)));

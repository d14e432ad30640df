import { shareOf, type LiveCount } from '@platform/coordination';

/**
 * Per-endpoint caps on attempts in flight, so a slow or dead endpoint holds only its own
 * deliveries back. A delivery for an endpoint at its cap is held here, in order, until one of its
 * attempts ends (rather than handed back to be claimed again every second: a hanging endpoint
 * would otherwise cost a write and a claim per delivery per second); up to `heldPerSlot` per
 * allowed attempt, beyond which it is to be handed back. With workers (REDIS_URL), the cap is split
 * across the live ones, ceil(cap / count) each, recomputed when the count changes (a raised cap
 * takes effect as attempts end), so all workers together stay near the endpoint's configured cap.
 */
export class EndpointSlots<T> {
  private readonly busy = new Map<string, number>();
  private readonly held = new Map<string, T[]>();
  private cap: number;

  constructor(
    configuredCap: number,
    private readonly heldPerSlot: number,
    workers?: LiveCount,
  ) {
    this.cap = shareOf(configuredCap, workers);
    workers?.onChange(() => (this.cap = shareOf(configuredCap, workers)));
  }

  /** The attempts this worker allows in flight to one endpoint now. */
  get perEndpoint(): number {
    return this.cap;
  }

  /** started: a slot is taken (release it when the attempt ends); held: it waits here; full: neither, hand it back. */
  take(endpointId: string, item: T): 'started' | 'held' | 'full' {
    const busy = this.busy.get(endpointId) ?? 0;
    if (busy < this.cap) {
      this.busy.set(endpointId, busy + 1);
      return 'started';
    }
    const held = this.held.get(endpointId) ?? [];
    if (held.length >= this.cap * this.heldPerSlot) return 'full';
    held.push(item);
    this.held.set(endpointId, held);
    return 'held';
  }

  /** An attempt to the endpoint ended: its slot is free; returns the next item held for it, to start now. */
  release(endpointId: string): T | undefined {
    const left = (this.busy.get(endpointId) ?? 1) - 1;
    if (left === 0) this.busy.delete(endpointId);
    else this.busy.set(endpointId, left);
    // Still at a cap that shrank (a worker joined): the held item waits for the next release.
    if (left >= this.cap) return undefined;
    const held = this.held.get(endpointId);
    const next = held?.shift();
    if (held?.length === 0) this.held.delete(endpointId);
    return next;
  }

  /** Every held item, taken out (the worker stops). */
  drain(): T[] {
    const all = [...this.held.values()].flat();
    this.held.clear();
    return all;
  }
}

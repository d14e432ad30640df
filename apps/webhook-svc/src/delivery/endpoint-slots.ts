/**
 * Per-endpoint caps on attempts in flight, so a slow or dead endpoint holds only its own
 * deliveries back. A delivery for an endpoint at its cap is held here, in order, until one of its
 * attempts ends (rather than handed back to be claimed again every second: a hanging endpoint
 * would otherwise cost a write and a claim per delivery per second); up to `heldPerSlot` per
 * allowed attempt, beyond which it is to be handed back.
 */
export class EndpointSlots<T> {
  private readonly busy = new Map<string, number>();
  private readonly held = new Map<string, T[]>();

  constructor(
    private readonly cap: number,
    private readonly heldPerSlot: number,
  ) {}

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

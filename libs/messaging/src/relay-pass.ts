import type { Logger } from '@platform/observability';
import type { BatchResult, ClaimedBatch } from './relay-batch';

/** What a relay's passes and its scheduling share. */
export interface RelayState {
  stopped: boolean;
  /** Set by a wake during a pass: the pass claims again instead of ending. */
  again: boolean;
  /** Set while a pass waits for its batches' commits: a wake then claims more at once. */
  nudge?: () => void;
  /** No pass starts before this time (after a failed pass, or while the broker is away). */
  retryAfter: number;
}

export interface PassOptions {
  state: RelayState;
  /** Claims and publishes the next batch (one claim at a time per relay). */
  claim(): Promise<ClaimedBatch>;
  batchSize: number;
  inFlightMax: number;
  pollIntervalMs: number;
  isConnected(): boolean;
  log: Logger;
}

export type PassStep = 'end' | 'broker away' | 'wait for a slot' | 'claim';

/** What a pass does next: it ends once stopped or a batch failed, and claims no rows (locks) while the broker is away. */
export function nextPassStep(s: {
  stopped: boolean;
  failed: number;
  connected: boolean;
  inFlight: number;
  inFlightMax: number;
}): PassStep {
  if (s.stopped || s.failed > 0) return 'end';
  if (!s.connected) return 'broker away';
  return s.inFlight >= s.inFlightMax ? 'wait for a slot' : 'claim';
}

/**
 * One pass: claims batches while there are rows (up to inFlightMax waiting for their confirms at
 * once), then waits for their commits; a wake meanwhile claims again at once instead of waiting.
 * A failed batch ends the pass, and the next waits for the poll interval.
 */
export async function runPass(o: PassOptions): Promise<void> {
  const { state } = o;
  const batches = batchesInFlight(o.log);
  try {
    for (;;) {
      const step = nextPassStep({
        stopped: state.stopped,
        failed: batches.failed,
        connected: o.isConnected(),
        inFlight: batches.size(),
        inFlightMax: o.inFlightMax,
      });
      if (step === 'end') return;
      if (step === 'broker away') {
        state.retryAfter = Date.now() + o.pollIntervalMs;
        return;
      }
      if (step === 'wait for a slot') {
        await batches.oneSettled();
        continue;
      }
      state.again = false;
      const { claimed, done } = await o.claim();
      batches.add(done);
      if (claimed === o.batchSize || state.again) continue;
      if (!(await commitsOrWake(state, batches))) return;
    }
  } finally {
    state.nudge = undefined;
    await batches.allSettled();
    if (batches.failed > 0) state.retryAfter = Date.now() + o.pollIntervalMs;
  }
}

/** Nothing more to claim now: waits for the batches' commits, unless woken meanwhile (then true: claim again). */
async function commitsOrWake(state: RelayState, batches: BatchesInFlight): Promise<boolean> {
  const woken = new Promise<void>((resolve) => (state.nudge = resolve));
  while (batches.size() > 0 && !state.again && !state.stopped) await Promise.race([batches.oneSettled(), woken]);
  state.nudge = undefined;
  return state.again;
}

type BatchesInFlight = ReturnType<typeof batchesInFlight>;

/** The batches of a pass waiting for their confirms, and how many rows (or transactions) failed. */
function batchesInFlight(log: Logger) {
  const inFlight = new Set<Promise<BatchResult>>();
  const batches = {
    failed: 0,
    size: () => inFlight.size,
    add(done: Promise<BatchResult>) {
      inFlight.add(done);
      void done
        .then(
          (r) => void (batches.failed += r.failed),
          (err: unknown) => {
            // Errors of a batch (its transaction) count as a failed pass: retried after the poll interval.
            batches.failed += 1;
            log.warn(
              { err: (err as Error)?.message },
              'outbox relay batch failed; its rows stay pending and are retried',
            );
          },
        )
        .finally(() => inFlight.delete(done));
    },
    oneSettled: () =>
      Promise.race(inFlight).then(
        () => undefined,
        () => undefined,
      ),
    allSettled: async () => void (await Promise.allSettled([...inFlight])),
  };
  return batches;
}

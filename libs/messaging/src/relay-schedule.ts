import type { Logger } from '@platform/observability';
import type { RelayState } from './relay-pass';

export type WakeAction = 'ignore' | 'join the pass' | 'wait' | 'start a pass';

/** What a wake does: nothing once stopped, tells a running pass to claim again, waits out a retry delay, or starts a pass. */
export function wakeAction(s: { stopped: boolean; running: boolean; now: number; retryAfter: number }): WakeAction {
  if (s.stopped) return 'ignore';
  if (s.running) return 'join the pass';
  return s.now < s.retryAfter ? 'wait' : 'start a pass';
}

/**
 * When the timer wakes the relay next: after the poll interval, or when a retry is due if that is
 * later. Without a poll of its own (a sweep job calls it), only a pending retry sets the timer.
 */
export function timerDelay(s: {
  selfPoll: boolean;
  pollIntervalMs: number;
  now: number;
  retryAfter: number;
}): number | undefined {
  if (!s.selfPoll && s.retryAfter <= s.now) return undefined;
  return Math.max(s.pollIntervalMs, s.retryAfter - s.now);
}

export interface RelayScheduleOptions {
  state: RelayState;
  /** One pass over the outbox. */
  pass(): Promise<void>;
  selfPoll: boolean;
  pollIntervalMs: number;
  log: Logger;
}

export interface RelaySchedule {
  /** Rows may be pending: run a pass now (or have the running one claim again), unless a retry delay holds. */
  wake(): void;
  /** Resolves when no pass runs any more. */
  whenIdle(): Promise<void>;
  /** No pass starts any more; a pass waiting for its commits ends after them. */
  stop(): void;
}

/** Runs one pass at a time, when woken or when the timer (poll or retry delay) is due. */
export function relaySchedule(o: RelayScheduleOptions): RelaySchedule {
  const { state } = o;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: (() => void)[] = [];

  function arm() {
    clearTimeout(timer);
    if (state.stopped) return;
    const delay = timerDelay({
      selfPoll: o.selfPoll,
      pollIntervalMs: o.pollIntervalMs,
      now: Date.now(),
      retryAfter: state.retryAfter,
    });
    if (delay === undefined) return;
    timer = setTimeout(wake, delay);
    timer.unref();
  }

  function wake() {
    const action = wakeAction({ stopped: state.stopped, running, now: Date.now(), retryAfter: state.retryAfter });
    if (action === 'ignore') return;
    if (action === 'join the pass') {
      state.again = true;
      state.nudge?.();
      return;
    }
    if (action === 'wait') return arm();
    running = true;
    state.again = false;
    clearTimeout(timer);
    void o.pass().catch(passFailed).finally(passEnded);
  }

  function passFailed(err: unknown) {
    state.retryAfter = Date.now() + o.pollIntervalMs;
    o.log.warn({ err: (err as Error)?.message }, 'outbox relay pass failed; will retry');
  }

  function passEnded() {
    running = false;
    if (state.again && Date.now() >= state.retryAfter) wake();
    else arm();
    if (running) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  return {
    wake,
    whenIdle: () => (running ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
    stop() {
      state.stopped = true;
      clearTimeout(timer);
      state.nudge?.();
    },
  };
}

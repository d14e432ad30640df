import path from 'node:path';
import type { LaunchOptions, Platform } from './platform.types';
import { startProcess, waitUntilReady, type ManagedProcess } from './process';
import type { ProcessName } from './processes';

const RESTART_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A process that ran this long before dying starts its back-off from the beginning again. */
const STABLE_AFTER_MS = 30_000;
/** How long a child's clean exit waits for the launcher's own stop signal before it counts as a death. */
const CLEAN_EXIT_GRACE_MS = 500;

export interface ProcessSetOptions {
  distDir: string;
  /** Where each process answers /health/ready: its admin listener. */
  adminUrls: Record<ProcessName, string>;
  /** A process's whole env: the shared one plus the private key it alone holds. */
  envOf: (name: ProcessName) => NodeJS.ProcessEnv;
  launch: LaunchOptions;
  log: (line: string) => void;
}

/** What the set shares between starting, supervising and stopping its processes. */
interface SetState {
  processes: Map<ProcessName, ManagedProcess>;
  restarts: Map<ProcessName, { attempt: number; timer?: NodeJS.Timeout }>;
  stopping: boolean;
}

/** The running processes, started and stopped by name, restarted with back-off when supervised; remembers the queues their ready answers name. */
export function processSet(o: ProcessSetOptions): Pick<Platform, 'processes' | 'start' | 'stop' | 'queues'> {
  const state: SetState = { processes: new Map(), restarts: new Map(), stopping: false };
  const declared = new Set<string>();
  const ready = async (name: ProcessName, proc: ManagedProcess) => {
    const answer = (await waitUntilReady(proc, `${o.adminUrls[name]}/health/ready`, o.launch.readyTimeoutMs)) as
      { queues?: unknown } | undefined;
    if (Array.isArray(answer?.queues)) for (const q of answer.queues) if (typeof q === 'string') declared.add(q);
  };
  const spawnOne = (name: ProcessName, extraEnv: NodeJS.ProcessEnv): ManagedProcess => {
    const proc = startProcess({
      name,
      script: path.join(o.distDir, 'apps', name, 'main.js'),
      env: { ...o.envOf(name), ...o.launch.envFor?.[name], ...extraEnv },
      inheritOutput: o.launch.inheritOutput,
      nodeArgs: o.launch.nodeArgs,
    });
    state.processes.set(name, proc);
    const startedAt = Date.now();
    const restart = () => spawnOne(name, extraEnv);
    if (o.launch.supervise)
      void proc.exited.then((code) => restartLater(o, state, { name, proc, code, startedAt }, restart, ready));
    return proc;
  };
  return {
    processes: state.processes,
    async start(name, extraEnv = {}) {
      clearTimeout(state.restarts.get(name)?.timer);
      await state.processes.get(name)?.stop();
      const proc = spawnOne(name, extraEnv);
      await ready(name, proc);
      return proc;
    },
    queues: () => [...declared],
    async stop() {
      state.stopping = true;
      for (const r of state.restarts.values()) clearTimeout(r.timer);
      await Promise.all([...state.processes.values()].map((p) => p.stop()));
    },
  };
}

interface Exit {
  name: ProcessName;
  proc: ManagedProcess;
  code: number | null;
  startedAt: number;
}

/** After a supervised process exited: unless it was stopped on purpose, starts it again after its back-off. */
function restartLater(
  o: Pick<ProcessSetOptions, 'log'>,
  state: SetState,
  exit: Exit,
  respawn: () => ManagedProcess,
  ready: (name: ProcessName, proc: ManagedProcess) => Promise<void>,
  settled = false,
): void {
  const { name, proc, code, startedAt } = exit;
  // A clean exit comes from a stop signal, and Ctrl+C signals the whole group: the child may exit
  // before our own SIGINT handler has run, so decide once that handler had its turn.
  if (!settled && code === 0 && !proc.child.signalCode)
    return void setTimeout(() => restartLater(o, state, exit, respawn, ready, true), CLEAN_EXIT_GRACE_MS);
  // Stopped on purpose (platform.stop, or start() replacing it): nothing to do.
  if (state.stopping || state.processes.get(name) !== proc || proc.stopRequested) return;
  const restart = state.restarts.get(name) ?? { attempt: 0 };
  if (Date.now() - startedAt > STABLE_AFTER_MS) restart.attempt = 0;
  const delay = RESTART_DELAYS_MS[Math.min(restart.attempt, RESTART_DELAYS_MS.length - 1)];
  restart.attempt += 1;
  const how = proc.child.signalCode ? `signal ${proc.child.signalCode}` : `code ${code}`;
  o.log(`[launcher] ${name} exited (${how}); restarting in ${delay / 1000}s`);
  restart.timer = setTimeout(() => {
    if (state.stopping) return;
    ready(name, respawn()).then(
      () => o.log(`[launcher] ${name} is back`),
      (err: unknown) => o.log(`[launcher] ${name} did not come back: ${(err as Error).message.split('\n')[0]}`),
    );
  }, delay);
  state.restarts.set(name, restart);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { listensOn } from './ports';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** Last lines the process wrote (stdout + stderr), for diagnosing a failed start. */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  /** True once stop() was called: its exit is not a crash. */
  readonly stopRequested: boolean;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export interface StartProcessOptions {
  name: string;
  script: string;
  env: NodeJS.ProcessEnv;
  /** Echo the child's output on ours (npm start) instead of only keeping a tail (tests). */
  inheritOutput?: boolean;
  /** Arguments for node before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

const TAIL_LINES = 200;
/** How long stop() waits for a graceful exit before it kills the process. */
const STOP_GRACE_MS = 10_000;

/**
 * Every child still running, killed when this process exits, so a test run that gives up never
 * leaves a platform behind. Kept on `process` because Jest loads this module once per test file.
 */
const CHILDREN = Symbol.for('@platform/launcher.children');
const holder = process as unknown as { [CHILDREN]?: Set<ChildProcess> };
const children = (holder[CHILDREN] ??= (() => {
  const set = new Set<ChildProcess>();
  process.once('exit', () => {
    for (const child of set) child.kill('SIGKILL');
  });
  return set;
})());

export function startProcess(options: StartProcessOptions): ManagedProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', ...(options.nodeArgs ?? []), options.script], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    if (options.inheritOutput) process.stdout.write(chunk);
    tail.push(...chunk.toString().split('\n').filter(Boolean));
    if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  children.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  let stopRequested = false;
  return {
    name: options.name,
    child,
    output: () => tail.join('\n'),
    exited,
    get stopRequested() {
      return stopRequested;
    },
    stop: async (signal = 'SIGTERM') => {
      stopRequested = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      // A process stuck in its shutdown (a hung connection, say) must not hold the caller forever.
      const stuck = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(stuck);
    },
  };
}

/**
 * Polls url until it answers 2xx from our child (returns its JSON body), the child exits, or the deadline passes. An
 * answer counts only while the child runs and (where the machine tells, Linux) holds the
 * listening socket itself: another process on the port (e.g. a first `npm start`) is not it.
 */
export async function waitUntilReady(proc: ManagedProcess, url: string, timeoutMs = 20_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  // An explicit port (what the launcher always uses); the default one is not checked.
  const port = Number(new URL(url).port) || undefined;
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  let foreign = false;
  for (;;) {
    if (exitCode !== undefined)
      throw new Error(
        `${proc.name} exited (${proc.child.signalCode ?? exitCode}) before it was ready:\n${proc.output()}`,
      );
    try {
      // A listener that accepts but never answers must not outlast the deadline.
      const res = await fetch(url, {
        signal: AbortSignal.timeout(Math.max(1, Math.min(2_000, deadline - Date.now()))),
      });
      const body: unknown = res.ok ? await res.json().catch(() => undefined) : void (await res.body?.cancel());
      const running = proc.child.exitCode === null && proc.child.signalCode === null && proc.child.pid !== undefined;
      if (res.ok && running) {
        if (port === undefined || (await listensOn(proc.child.pid!, port)) !== false) return body;
        foreign = true;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const why = foreign ? `another process answers on port ${port}` : `not ready at ${url}`;
      throw new Error(`${proc.name} ${why} after ${timeoutMs} ms:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

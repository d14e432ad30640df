import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

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
}

const TAIL_LINES = 200;

export function startProcess(options: StartProcessOptions): ManagedProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', options.script], {
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
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
      await exited;
    },
  };
}

/** Polls url until it answers 2xx, the process exits, or the deadline passes. */
export async function waitUntilReady(proc: ManagedProcess, url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${proc.name} exited (${exitCode}) before it was ready:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      // A ready answer counts only while our child runs: another process may hold the port.
      if (res.ok && proc.child.exitCode === null && proc.child.signalCode === null) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready at ${url} after ${timeoutMs} ms:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something already listens on 127.0.0.1:port (binding it fails). */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

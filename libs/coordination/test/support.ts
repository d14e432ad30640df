import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { createLogger, type Logger } from '@platform/observability';
import { portInUse } from '@platform/launcher';
import { uniqueName, waitFor } from '@platform/testing';
import { Coordination, type CoordinationOptions } from '../src';

/** The test machine's Redis; each test run keeps its keys under a prefix of its own. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const uniquePrefix = () => `${uniqueName('test')}:`;

/** A logger whose lines the test reads (msg and level of each). */
export function capturedLogger(): { logger: Logger; lines: { level: number; msg: string }[] } {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('coordination-test', 'info', sink), lines };
}

/** A process's coordination as a service builds it, with its own metrics registry; closed by the caller. */
export function coordinationFor(options: Partial<CoordinationOptions> & { keyPrefix: string }) {
  const registry = new Registry();
  const coordination = new Coordination({
    url: REDIS_URL,
    role: 'gateway',
    logger: capturedLogger().logger,
    registry,
    metricPrefix: 'test',
    ...options,
  });
  const metric = async (name: string) => (await registry.getMetricsAsJSON()).find((m) => m.name === name)?.values ?? [];
  return { coordination, registry, metric };
}

/** Waits until the coordination's connection is up and its first heartbeat is in. */
export const connected = (coordination: Coordination) =>
  waitFor(() => coordination.usable(), { what: 'Redis connected' });

/** A redis-server of the test's own on a port (no persistence), to stop and start again. */
export async function ownRedis(port: number): Promise<{ url: string; kill(): Promise<void> }> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  const url = `redis://127.0.0.1:${port}`;
  await waitFor(() => portInUse(port), { what: `redis-server on ${port}` });
  return {
    url,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Coordinations a test starts, and whatever else it registers, closed (last first) after each
 * test. Call at a test file's top level.
 */
export function closedAfterEach() {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  return {
    started(options: Parameters<typeof coordinationFor>[0]) {
      const made = coordinationFor(options);
      closing.push(() => made.coordination.close());
      return made;
    },
    onClose(close: () => Promise<unknown>) {
      closing.push(close);
    },
  };
}

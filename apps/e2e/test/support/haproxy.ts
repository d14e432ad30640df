import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, portInUse } from '@platform/launcher';
import { waitFor } from '@platform/testing';

/** A gateway behind the proxy: its partners' port and its admin port (where /health/live is checked). */
export interface Backend {
  url: string;
  adminUrl: string;
}

export interface Haproxy {
  url: string;
  stop(): Promise<void>;
}

const portOf = (url: string) => new URL(url).port;

/**
 * Debian's haproxy in front of the gateways, on loopback, as an operator would run it: round
 * robin, a health check of each gateway's /health/live every 200 ms (out after one miss), and a
 * request whose gateway refused the connection or died before answering is retried on another
 * (retries, option redispatch, retry-on).
 */
function configOf(port: number, backends: Backend[]): string {
  const servers = backends.map(
    (b, i) => `  server gw${i + 1} 127.0.0.1:${portOf(b.url)} check port ${portOf(b.adminUrl)}`,
  );
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    'frontend partners',
    `  bind 127.0.0.1:${port}`,
    '  default_backend gateways',
    'backend gateways',
    '  balance roundrobin',
    '  option httpchk GET /health/live',
    '  default-server inter 200ms fall 1 rise 1',
    ...servers,
    '',
  ].join('\n');
}

/** Starts /usr/sbin/haproxy (foreground, a child of this process) in front of the backends; stop() ends it. */
export async function startHaproxy(backends: Backend[]): Promise<Haproxy> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, configOf(port, backends));
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  await waitFor(() => child.exitCode === null && portInUse(port), { what: `haproxy on ${port}` }).catch((err) => {
    throw new Error(`${(err as Error).message}\n${stderr}`);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      process.off('exit', kill);
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

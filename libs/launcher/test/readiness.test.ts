import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  assertPortsFree,
  freePort,
  portHolder,
  PortsInUseError,
  startProcess,
  waitUntilReady,
  type ManagedProcess,
} from '../src';

// Real processes only: a node child that listens (or not), and an HTTP server in this process
// playing "another process on the port". No sleeps: readiness polls with a deadline.

const SERVE = `require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));`;
const IDLE = `setInterval(() => undefined, 60_000);`;
const EXIT = `process.exit(3);`;

let dir: string;
const children: (ChildProcess | ManagedProcess)[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'launcher-'));
  await Promise.all([
    writeFile(path.join(dir, 'serve.js'), SERVE),
    writeFile(path.join(dir, 'idle.js'), IDLE),
    writeFile(path.join(dir, 'exit.js'), EXIT),
  ]);
});

afterEach(async () => {
  for (const c of children.splice(0)) {
    if ('stop' in c) await c.stop();
    else if (c.exitCode === null && c.signalCode === null) {
      c.kill();
      await once(c, 'exit');
    }
  }
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** Another process answering 200 on a port (what a first `npm start` looks like to a second). */
async function foreignServer(): Promise<number> {
  const server = createServer((_req, res) => res.end('ok'));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

/** A node child listening on a free port; resolves once it says so. */
async function listeningChild(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, 'serve.js')], {
    env: { PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await once(child.stdout!, 'data');
  return { child, port };
}

const run = (script: string, port: number) => {
  const proc = startProcess({ name: script, script: path.join(dir, `${script}.js`), env: { PORT: String(port) } });
  children.push(proc);
  return proc;
};

describe('waitUntilReady', () => {
  it('when our child listens and answers, then it is ready', async () => {
    const port = await freePort();
    await expect(waitUntilReady(run('serve', port), `http://127.0.0.1:${port}/`, 10_000)).resolves.toBeUndefined();
  });

  it('when another process answers on the port while our child runs without listening, then that answer does not count', async () => {
    const port = await foreignServer();
    await expect(waitUntilReady(run('idle', port), `http://127.0.0.1:${port}/`, 1_000)).rejects.toThrow(
      `idle another process answers on port ${port}`,
    );
  });

  it('when our child exits while another process answers on its port, then it fails with the exit', async () => {
    const port = await foreignServer();
    await expect(waitUntilReady(run('exit', port), `http://127.0.0.1:${port}/`, 10_000)).rejects.toThrow(
      'exit exited (3) before it was ready',
    );
  });
});

describe('ports', () => {
  it('when another process listens on a port, then portHolder names its pid and command', async () => {
    const { child, port } = await listeningChild();
    expect(await portHolder(port)).toEqual({ pid: child.pid, command: expect.stringContaining('serve.js') });
  });

  it('when a port of the launch is taken, then assertPortsFree refuses, naming the port, its holder and the variable that moves it', async () => {
    const { child, port } = await listeningChild();
    const free = await freePort();
    const refusal = assertPortsFree([
      { port: free, owner: 'domains-svc', env: 'DOMAINS_PORT' },
      { port, owner: 'gateway', env: 'GATEWAY_PORT' },
    ]);
    await expect(refusal).rejects.toBeInstanceOf(PortsInUseError);
    const err = (await refusal.catch((e: unknown) => e)) as PortsInUseError;
    expect(err.taken).toEqual([{ port, owner: 'gateway', env: 'GATEWAY_PORT' }]);
    expect(err.message).toContain(`port ${port} (gateway, GATEWAY_PORT) is already in use by pid ${child.pid}: `);
    expect(err.message).not.toContain(`port ${free} (`);
    expect(err.message).toMatch(/Is another npm start running\?.*\n.*GATEWAY_PORT=\d+/);
  });

  it('when every port is free, then assertPortsFree lets the launch go on', async () => {
    await expect(
      assertPortsFree([{ port: await freePort(), owner: 'gateway', env: 'GATEWAY_PORT' }]),
    ).resolves.toBeUndefined();
  });
});

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from './wait';

const run = promisify(execFile);

/** The scripts of the rabbitmq-server package, run directly (the /usr/sbin wrappers switch to the rabbitmq user). */
const SBIN = process.env.RABBITMQ_SBIN ?? '/usr/lib/rabbitmq/bin';

export interface RabbitNode {
  /** Erlang node name, e.g. c1-3f9a@localhost. */
  name: string;
  port: number;
  url: string;
}

export interface RabbitCluster {
  nodes: RabbitNode[];
  /** Every node's URL, comma-separated: AMQP_URL for the platform. */
  amqpUrl: string;
  /** Kills a node's Erlang VM (SIGKILL, as a crashed machine): its connections drop at once. */
  kill(node: RabbitNode): void;
  /** The nodes running in the cluster, as a surviving node sees it. */
  runningNodes(via?: RabbitNode): Promise<string[]>;
  /** The client connections each running node holds, by node name. */
  connectionsByNode(via?: RabbitNode): Promise<Map<string, number>>;
  /** Each queue's members (the nodes holding a replica of a quorum queue), by queue name. */
  queueMembers(via?: RabbitNode): Promise<Map<string, string[]>>;
  /** Kills every node and deletes their data. */
  close(): Promise<void>;
}

export interface RabbitClusterOptions {
  size?: number;
  /** Deadline for the whole start (boot, join), long enough for a busy machine. */
  timeoutMs?: number;
  /** Called with a line per step, to show where a slow start spends its time. */
  log?: (line: string) => void;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Small Erlang VMs for a shared machine: one scheduler each, and no busy-waiting schedulers
 * (they spin on idle cores), distribution on loopback only.
 */
const ERL_ARGS =
  '+S 1:1 +SDio 1 +A 4 +sbwt none +sbwtdcpu none +sbwtdio none -kernel inet_dist_use_interface {127,0,0,1}';

/**
 * A RabbitMQ cluster of `size` extra nodes on 127.0.0.1, each with its own ports, data and logs in a
 * temporary folder and one Erlang cookie of its own (HOME points there), beside any broker already
 * running (the shared epmd on 4369 tells the nodes apart by name). Nodes 2..n join node 1. Needs
 * the rabbitmq-server package (RABBITMQ_SBIN names its scripts folder if not the Debian one).
 */
export async function startRabbitCluster(options: RabbitClusterOptions = {}): Promise<RabbitCluster> {
  if (!existsSync(path.join(SBIN, 'rabbitmq-server')))
    throw new Error(`rabbitmq-server not found in ${SBIN} (install the rabbitmq-server package or set RABBITMQ_SBIN)`);
  const size = options.size ?? 3;
  const log = options.log ?? (() => undefined);
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const { dir, baseEnv } = await clusterFolder();
  const suffix = randomBytes(3).toString('hex');
  const nodes: (RabbitNode & { child?: ChildProcess })[] = [];
  for (let i = 1; i <= size; i++) nodes.push({ name: `c${i}-${suffix}@localhost`, port: await freePort(), url: '' });
  for (const node of nodes) node.url = `amqp://guest:guest@127.0.0.1:${node.port}`;

  const ctl = async (node: RabbitNode, ...args: string[]) => {
    const timeout = Math.max(30_000, deadline - Date.now());
    const { stdout } = await run(path.join(SBIN, 'rabbitmqctl'), ['-n', node.name, ...args], {
      env: baseEnv,
      // An Erlang VM that fails writes erl_crash.dump into its working folder.
      cwd: dir,
      timeout,
    });
    return stdout;
  };
  const killAll = () => {
    for (const node of nodes) killGroup(node.child);
  };
  process.once('exit', killAll);
  const cluster: RabbitCluster = {
    nodes: nodes.map(({ name, port, url }) => ({ name, port, url })),
    amqpUrl: nodes.map((n) => n.url).join(','),
    kill: (node) => killGroup(nodes.find((n) => n.name === node.name)?.child),
    runningNodes: async (via = nodes[0]) =>
      (JSON.parse(await ctl(via, 'cluster_status', '--formatter', 'json')) as { running_nodes: string[] })
        .running_nodes,
    ...observers(nodes, ctl),
    close: async () => {
      process.removeListener('exit', killAll);
      killAll();
      await Promise.all(nodes.map((n) => exited(n.child)));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await bootNodes(nodes, dir, baseEnv, ctl, log, deadline);
    await joinNodes(nodes, ctl, log);
    await waitFor(async () => (await cluster.runningNodes()).length === size, {
      timeoutMs: Math.max(1_000, deadline - Date.now()),
      intervalMs: 1_000,
      what: `all ${size} RabbitMQ nodes running in one cluster`,
    });
    log(`rabbit cluster: ${nodes.map((n) => `${n.name} on ${n.port}`).join(', ')}`);
    return cluster;
  } catch (err) {
    await cluster.close();
    throw err;
  }
}

/** The cluster's temporary folder (cookie, plugins, env file) and the environment every rabbitmq script runs with. */
async function clusterFolder() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rabbit-cluster-'));
  await writeFile(path.join(dir, '.erlang.cookie'), randomBytes(16).toString('hex'), { mode: 0o400 });
  await writeFile(path.join(dir, 'enabled_plugins'), '[].\n');
  // An empty env file: the system's (/etc/rabbitmq/rabbitmq-env.conf) names the system broker's node.
  await writeFile(path.join(dir, 'rabbitmq-env.conf'), '');
  const baseEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    LANG: 'C.UTF-8',
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_CTL_ERL_ARGS: '+S 1:1 +sbwt none',
  };
  return { dir, baseEnv };
}

type Ctl = (node: RabbitNode, ...args: string[]) => Promise<string>;

/** What the cluster's nodes report (through rabbitmqctl on one of them). */
function observers(nodes: RabbitNode[], ctl: Ctl): Pick<RabbitCluster, 'connectionsByNode' | 'queueMembers'> {
  return {
    connectionsByNode: async (via = nodes[0]) => {
      // The server port a client dialled tells its node (list_connections has no node column in 3.10).
      const rows = JSON.parse(await ctl(via, 'list_connections', 'port', '--formatter', 'json')) as { port: number }[];
      const counts = new Map<string, number>();
      for (const { port } of rows) {
        const name = nodes.find((n) => n.port === port)?.name ?? `port ${port}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return counts;
    },
    queueMembers: async (via = nodes[0]) => {
      const rows = JSON.parse(await ctl(via, 'list_queues', 'name', 'members', '--formatter', 'json')) as {
        name: string;
        members: string[] | string;
      }[];
      return new Map(rows.map((r) => [r.name, Array.isArray(r.members) ? r.members : []]));
    },
  };
}

async function bootNodes(
  nodes: (RabbitNode & { child?: ChildProcess })[],
  dir: string,
  baseEnv: NodeJS.ProcessEnv,
  ctl: Ctl,
  log: (line: string) => void,
  deadline: number,
) {
  for (const node of nodes) {
    const short = node.name.split('@')[0];
    const config = path.join(dir, `${short}.conf`);
    await writeFile(config, `listeners.tcp.default = 127.0.0.1:${node.port}\n`);
    const out = openSync(path.join(dir, `${short}.out`), 'a');
    node.child = spawn(path.join(SBIN, 'rabbitmq-server'), [], {
      env: {
        ...baseEnv,
        RABBITMQ_NODENAME: node.name,
        RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
        RABBITMQ_NODE_PORT: String(node.port),
        RABBITMQ_DIST_PORT: String(await freePort()),
        RABBITMQ_CONFIG_FILE: config,
        RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
        RABBITMQ_LOG_BASE: path.join(dir, 'log'),
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: ERL_ARGS,
      },
      // A process group of its own, so kill() reaches the Erlang VM behind the start script.
      detached: true,
      cwd: dir,
      stdio: ['ignore', out, out],
    });
  }
  // await_startup waits for a booting node, but fails at once while its VM has not yet registered with epmd.
  const booted = (node: RabbitNode) =>
    waitFor(() => ctl(node, 'await_startup', '--timeout', '60').then(() => true), {
      timeoutMs: Math.max(1_000, deadline - Date.now()),
      intervalMs: 1_000,
      what: `RabbitMQ node ${node.name} to boot (log in ${dir})`,
    });
  await Promise.all(nodes.map(booted));
  log(`rabbit cluster: ${nodes.length} nodes booted`);
}

async function joinNodes(nodes: RabbitNode[], ctl: Ctl, log: (line: string) => void) {
  const [first, ...rest] = nodes;
  for (const node of rest) {
    await ctl(node, 'stop_app');
    await ctl(node, 'join_cluster', first.name);
    await ctl(node, 'start_app');
    log(`rabbit cluster: ${node.name} joined ${first.name}`);
  }
}

function killGroup(child: ChildProcess | undefined) {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function exited(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

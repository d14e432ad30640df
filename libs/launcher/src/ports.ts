import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer } from 'node:net';

/** Below this, Linux never picks a port for an outgoing connection (ip_local_port_range's start). */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 1024 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 20_000;
/** Ports this process handed out: never given twice, so two launches in one test process never share one. */
const handedOut = new Set<number>();

/**
 * A port that was free a moment ago, for a server a child process is about to start. Taken below
 * the ephemeral range: a port the OS picked (listen on 0) is one it also gives to outgoing
 * connections, so between this answer and the child's listen any connection to PostgreSQL or
 * RabbitMQ could take it (EADDRINUSE). Falls back to the OS's pick if the range is full.
 */
export async function freePort(): Promise<number> {
  const highest = ephemeralStart() - 1;
  for (let attempt = 0; attempt < 50 && highest > LOWEST; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (handedOut.has(port)) continue;
    // Reserved before the check, so concurrent calls never pick the same one.
    handedOut.add(port);
    if (!(await portInUse(port))) return port;
  }
  return osPickedPort();
}

function osPickedPort(): Promise<number> {
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

/**
 * Inodes of the TCP sockets listening on port, from Linux's /proc/net/tcp and tcp6; undefined
 * where the machine does not tell (no /proc).
 */
async function listeningInodes(port: number): Promise<Set<string> | undefined> {
  const inodes = new Set<string>();
  let known = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    known = true;
    // sl local_address rem_address st ... inode: "0100007F:1F90" is 127.0.0.1:8080, st 0A is LISTEN.
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && fields[3] === '0A' && parseInt(fields[1].split(':')[1], 16) === port)
        inodes.add(fields[9]);
    }
  }
  return known ? inodes : undefined;
}

/** Inodes of the sockets process pid holds (empty when its /proc entry cannot be read). */
async function socketInodes(pid: number): Promise<Set<string>> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return new Set(links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []));
}

/**
 * Whether process pid is the one listening on port: true or false when the machine can tell
 * (Linux), undefined when it cannot.
 */
export async function listensOn(pid: number, port: number): Promise<boolean | undefined> {
  const listening = await listeningInodes(port);
  if (listening === undefined) return undefined;
  const held = await socketInodes(pid);
  return [...listening].some((inode) => held.has(inode));
}

export interface PortHolder {
  pid: number;
  /** Its command line, shortened. */
  command: string;
}

/** The process listening on port, when the machine can tell (Linux, and a process we may inspect). */
export async function portHolder(port: number): Promise<PortHolder | undefined> {
  const listening = await listeningInodes(port);
  if (!listening || listening.size === 0) return undefined;
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((entry) => /^\d+$/.test(entry)).map(Number);
  for (const pid of pids) {
    const held = await socketInodes(pid);
    if (![...listening].some((inode) => held.has(inode))) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    const command = cmdline.split('\0').filter(Boolean).join(' ');
    return { pid, command: command.length > 100 ? `${command.slice(0, 97)}...` : command };
  }
  return undefined;
}

/** A port a launch needs: its number, who would listen on it and the variable that changes it. */
export interface PortClaim {
  port: number;
  /** e.g. `gateway`, `mail catcher`. */
  owner: string;
  env: string;
}

/** Thrown before anything starts when a port is taken (e.g. by a second `npm start`). */
export class PortsInUseError extends Error {
  constructor(
    message: string,
    readonly taken: PortClaim[],
  ) {
    super(message);
    this.name = 'PortsInUseError';
  }
}

/**
 * Throws a PortsInUseError naming every taken port, the process holding it (when the machine
 * tells) and the variable that moves it elsewhere; resolves when all are free.
 */
export async function assertPortsFree(claims: PortClaim[]): Promise<void> {
  const taken: PortClaim[] = [];
  const lines: string[] = [];
  for (const claim of claims) {
    if (!(await portInUse(claim.port))) continue;
    taken.push(claim);
    const holder = await portHolder(claim.port);
    const by = holder ? `pid ${holder.pid}: ${holder.command}` : 'another process';
    lines.push(`port ${claim.port} (${claim.owner}, ${claim.env}) is already in use by ${by}`);
  }
  if (taken.length === 0) return;
  const example = claims.map((c) => `${c.env}=${c.port + 1000 <= 65535 ? c.port + 1000 : c.port - 1000}`).join(' ');
  throw new PortsInUseError(
    `${lines.join('\n    ')}\n    Is another npm start running? Stop it (Ctrl+C in its terminal), or give this one other ports, e.g.\n    ${example} npm start`,
    taken,
  );
}

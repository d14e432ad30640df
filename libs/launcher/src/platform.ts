import { execFile } from 'node:child_process';
import { createPublicKey, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateInternalKeyPair, generateRecordSigningKeys } from '@platform/auth';
import { consumerQueueNames, DEFAULT_RETRY_DELAYS_MS } from '@platform/messaging';
import { assertPortsFree, freePort, type PortClaim } from './ports';
import { startProcess, waitUntilReady, type ManagedProcess } from './process';
import { processSet } from './process-set';

const run = promisify(execFile);

/**
 * Every deployable process of the platform, with the env variables naming its port and its admin
 * (operator) port: health, readiness and /metrics, loopback only.
 */
export const SERVICES = [
  {
    name: 'domains-svc',
    portEnv: 'DOMAINS_PORT',
    urlEnv: 'DOMAINS_URL',
    defaultPort: 8081,
    adminPortEnv: 'DOMAINS_ADMIN_PORT',
    defaultAdminPort: 9081,
  },
  {
    name: 'billing-svc',
    portEnv: 'BILLING_PORT',
    urlEnv: 'BILLING_URL',
    defaultPort: 8082,
    adminPortEnv: 'BILLING_ADMIN_PORT',
    defaultAdminPort: 9082,
  },
  {
    name: 'merchants-svc',
    portEnv: 'MERCHANTS_PORT',
    urlEnv: 'MERCHANTS_URL',
    defaultPort: 8083,
    adminPortEnv: 'MERCHANTS_ADMIN_PORT',
    defaultAdminPort: 9083,
  },
  {
    name: 'consent-svc',
    portEnv: 'CONSENT_PORT',
    urlEnv: 'CONSENT_URL',
    defaultPort: 8084,
    adminPortEnv: 'CONSENT_ADMIN_PORT',
    defaultAdminPort: 9084,
  },
  {
    name: 'webhook-svc',
    portEnv: 'WEBHOOKS_PORT',
    urlEnv: 'WEBHOOKS_URL',
    defaultPort: 8085,
    adminPortEnv: 'WEBHOOKS_ADMIN_PORT',
    defaultAdminPort: 9085,
  },
  {
    name: 'gateway',
    portEnv: 'GATEWAY_PORT',
    urlEnv: 'GATEWAY_URL',
    defaultPort: 8080,
    adminPortEnv: 'GATEWAY_ADMIN_PORT',
    defaultAdminPort: 9080,
  },
] as const;
export type ProcessName = (typeof SERVICES)[number]['name'];

/** Every queue the platform's consumers may declare on an exchange (work, retries, parked per service), to delete after a run. */
export const platformQueues = (exchange: string): string[] =>
  SERVICES.flatMap(({ name }) => {
    const names = consumerQueueNames(`${exchange}.${name}`, DEFAULT_RETRY_DELAYS_MS.length);
    return [names.work, names.parked, ...names.retry];
  });

/** Signing keys only one kind of process may hold: the gateway's, and the services' own. */
const GATEWAY_ONLY = ['INTERNAL_JWT_PRIVATE_KEY'];
const SERVICES_ONLY = ['SERVICE_JWT_PRIVATE_KEY'];
/** consent-svc's record signing keys (private): only it holds them. */
const CONSENT_ONLY = ['RECORD_SIGNING_KEYS'];

export interface LaunchOptions {
  /** Folder holding dist/apps/<name>/main.js; defaults to the repository's dist/. */
  distDir?: string;
  databaseUrl: string;
  amqpUrl: string;
  /** Fixed ports (npm start, from the *_PORT variables or the defaults) or ephemeral ones (tests, the default). */
  fixedPorts?: boolean;
  /**
   * Pass this process's whole environment on (npm start: every variable a service reads reaches
   * it). Off (tests): only what the launcher sets and `env`, so a developer's shell cannot change a test.
   */
  inheritEnv?: boolean;
  /** Restart a process that exits on its own, with back-off (npm start). */
  supervise?: boolean;
  /** Extra env for every process, and per process. */
  env?: NodeJS.ProcessEnv;
  envFor?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  inheritOutput?: boolean;
  /** Extra arguments for node itself in every process, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** Where supervision reports (default: stderr). */
  log?: (line: string) => void;
}

export interface Platform {
  urls: Record<ProcessName, string>;
  /** Each process's admin listener (/health/live, /health/ready, /metrics), on loopback. */
  adminUrls: Record<ProcessName, string>;
  /** The environment shared by every process (no private key in it). */
  env: NodeJS.ProcessEnv;
  /** The key pairs this launch generated (or was given): the gateway's and the services'. */
  keys: {
    gatewayPrivateKey: string;
    gatewayPublicKey: string;
    servicesPrivateKey: string;
    servicesPublicKey: string;
    recordSigningKeys: string;
  };
  processes: Map<ProcessName, ManagedProcess>;
  /** Starts (or starts again) one process with the shared env plus extra; waits until it is ready. */
  start(name: ProcessName, extraEnv?: NodeJS.ProcessEnv): Promise<ManagedProcess>;
  /**
   * Starts one more instance of a service on ports of its own (the shared env plus extra), stopped
   * with the rest; waits until it is ready. Not supervised. For tests of several instances at once.
   */
  startInstance(name: ProcessName, extraEnv?: NodeJS.ProcessEnv): Promise<ExtraInstance>;
  stop(): Promise<void>;
  /** Every broker queue the platform's consumers declared (as their ready answers named them): what a test run deletes when it ends. */
  queues(): string[];
  /** Runs the gateway's admin CLI with --json and returns its one JSON object. */
  admin<T = Record<string, unknown>>(...args: string[]): Promise<T>;
}

/** A further instance of a service (startInstance). */
export interface ExtraInstance {
  process: ManagedProcess;
  url: string;
  adminUrl: string;
}

/** dist/ of the repository the command runs from (npm scripts and Nx run at the root). */
export const defaultDistDir = () => path.resolve(process.cwd(), 'dist');

/** The fixed ports of every process (npm start), public then admin: the *_PORT variables of env, or the defaults. */
export function platformPorts(env: NodeJS.ProcessEnv = process.env): PortClaim[] {
  return [
    ...SERVICES.map((s) => ({ port: Number(env[s.portEnv] ?? s.defaultPort), owner: s.name, env: s.portEnv })),
    ...SERVICES.map((s) => ({
      port: Number(env[s.adminPortEnv] ?? s.defaultAdminPort),
      owner: `${s.name} admin`,
      env: s.adminPortEnv,
    })),
  ];
}

/** The key pair given (its public half derived when only the private one is), else a new one. */
function keyPair(privateKey?: string, publicKey?: string): { privateKey: string; publicKey: string } {
  if (!privateKey) return generateInternalKeyPair();
  return {
    privateKey,
    publicKey:
      publicKey ?? createPublicKey(privateKey.replace(/\\n/g, '\n')).export({ type: 'spki', format: 'pem' }).toString(),
  };
}

type Keys = Platform['keys'];

/** The key pairs of a launch: given ones (inherited or in env) are used, else new ones are made. */
function launchKeys(given: NodeJS.ProcessEnv): Keys {
  const gatewayPair = keyPair(given.INTERNAL_JWT_PRIVATE_KEY, given.INTERNAL_JWT_PUBLIC_KEY);
  const servicesPair = keyPair(given.SERVICE_JWT_PRIVATE_KEY, given.SERVICE_JWT_PUBLIC_KEY);
  return {
    gatewayPrivateKey: gatewayPair.privateKey,
    gatewayPublicKey: gatewayPair.publicKey,
    servicesPrivateKey: servicesPair.privateKey,
    servicesPublicKey: servicesPair.publicKey,
    recordSigningKeys: given.RECORD_SIGNING_KEYS ?? generateRecordSigningKeys(),
  };
}

type Ports = { ports: Record<ProcessName, number>; adminPorts: Record<ProcessName, number> };

/** Each process's port and admin port: the fixed ones (checked free first) or ephemeral ones. */
async function launchPorts(fixedPorts: boolean | undefined): Promise<Ports> {
  const ports = {} as Record<ProcessName, number>;
  const adminPorts = {} as Record<ProcessName, number>;
  if (fixedPorts) {
    const claims = platformPorts(process.env);
    await assertPortsFree(claims);
    for (const [i, s] of SERVICES.entries()) {
      ports[s.name] = claims[i].port;
      adminPorts[s.name] = claims[SERVICES.length + i].port;
    }
  } else {
    for (const s of SERVICES) {
      ports[s.name] = await freePort();
      adminPorts[s.name] = await freePort();
    }
  }
  return { ports, adminPorts };
}

/** The environment every process shares: no private key in it (see envOf). */
function sharedEnv(
  options: LaunchOptions,
  source: NodeJS.ProcessEnv,
  keys: Keys,
  { ports, adminPorts }: Ports,
  urls: Record<ProcessName, string>,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...source,
    PATH: process.env.PATH,
    NODE_ENV: source.NODE_ENV ?? 'development',
    LOG_LEVEL: source.LOG_LEVEL ?? 'info',
    // Local runs and tests migrate at boot; production runs each service's migrate.js instead.
    MIGRATE_ON_BOOT: source.MIGRATE_ON_BOOT ?? 'true',
    DATABASE_URL: options.databaseUrl,
    AMQP_URL: options.amqpUrl,
    INTERNAL_JWT_PUBLIC_KEY: keys.gatewayPublicKey,
    SERVICE_JWT_PUBLIC_KEY: keys.servicesPublicKey,
    WIDGET_BASE_URL: source.WIDGET_BASE_URL ?? urls.gateway,
    // Local runs: one key for this launch (npm start keeps one in a file), and webhook endpoints on this machine.
    WEBHOOK_SECRET_KEY: source.WEBHOOK_SECRET_KEY ?? randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_LOOPBACK: source.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    ...Object.fromEntries(
      SERVICES.flatMap((s) => [
        [s.portEnv, String(ports[s.name])],
        [s.urlEnv, urls[s.name]],
        [s.adminPortEnv, String(adminPorts[s.name])],
      ]),
    ),
    ...options.env,
  };
  for (const name of [...GATEWAY_ONLY, ...SERVICES_ONLY, ...CONSENT_ONLY]) delete env[name];
  return env;
}

/** Runs the gateway's admin CLI of distDir with --json in env and returns its one JSON object. */
export async function runAdmin<T = Record<string, unknown>>(
  distDir: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [path.join(distDir, 'apps', 'gateway', 'admin.js'), ...args, '--json'],
    { env },
  );
  return JSON.parse(stdout) as T;
}

/** Runs every service as its own process on this machine, wired together through env. */
export async function launchPlatform(options: LaunchOptions): Promise<Platform> {
  const distDir = options.distDir ?? process.env.PLATFORM_DIST_DIR ?? defaultDistDir();
  const source = options.inheritEnv ? process.env : {};
  const keys = launchKeys({ ...source, ...options.env });
  const ports = await launchPorts(options.fixedPorts);
  const urls = {} as Record<ProcessName, string>;
  const adminUrls = {} as Record<ProcessName, string>;
  for (const s of SERVICES) {
    urls[s.name] = `http://127.0.0.1:${ports.ports[s.name]}`;
    adminUrls[s.name] = `http://127.0.0.1:${ports.adminPorts[s.name]}`;
  }
  const env = sharedEnv(options, source, keys, ports, urls);
  const envOf = (name: ProcessName): NodeJS.ProcessEnv => {
    if (name === 'gateway') return { ...env, INTERNAL_JWT_PRIVATE_KEY: keys.gatewayPrivateKey };
    const own = { ...env, SERVICE_JWT_PRIVATE_KEY: keys.servicesPrivateKey };
    return name === 'consent-svc' ? { ...own, RECORD_SIGNING_KEYS: keys.recordSigningKeys } : own;
  };
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { processes, start, stop, queues: declared } = processSet({ distDir, adminUrls, envOf, launch: options, log });
  // What the services named, and the default consumer queues of each in case one never got to say.
  const queues = () => [
    ...new Set([...(env.EVENTS_EXCHANGE ? platformQueues(env.EVENTS_EXCHANGE) : []), ...declared()]),
  ];

  try {
    // Services first (they migrate their own schemas), the gateway last.
    await Promise.all(SERVICES.filter((s) => s.name !== 'gateway').map((s) => start(s.name)));
    await start('gateway');
  } catch (err) {
    await stop();
    throw err;
  }
  const extras: ManagedProcess[] = [];
  const startInstance = async (name: ProcessName, extraEnv: NodeJS.ProcessEnv = {}): Promise<ExtraInstance> => {
    const service = SERVICES.find((s) => s.name === name)!;
    const [port, adminPort] = [await freePort(), await freePort()];
    const proc = startProcess({
      name: `${name}#${extras.length + 2}`,
      script: path.join(distDir, 'apps', name, 'main.js'),
      env: {
        ...envOf(name),
        ...options.envFor?.[name],
        ...extraEnv,
        [service.portEnv]: String(port),
        [service.adminPortEnv]: String(adminPort),
      },
      inheritOutput: options.inheritOutput,
      nodeArgs: options.nodeArgs,
    });
    extras.push(proc);
    const adminUrl = `http://127.0.0.1:${adminPort}`;
    await waitUntilReady(proc, `${adminUrl}/health/ready`);
    return { process: proc, url: `http://127.0.0.1:${port}`, adminUrl };
  };
  const stopAll = async () => {
    await Promise.all(extras.map((p) => p.stop()));
    await stop();
  };
  return {
    urls,
    adminUrls,
    env,
    keys,
    processes,
    start,
    startInstance,
    stop: stopAll,
    queues,
    admin: (...args) => runAdmin(distDir, env, args),
  };
}

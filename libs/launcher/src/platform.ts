import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateInternalKeyPair } from '@platform/auth';
import { freePort, startProcess, waitUntilReady, type ManagedProcess } from './process';

const run = promisify(execFile);

/** Every deployable process of the platform, with the env variable naming its port. */
export const SERVICES = [
  { name: 'domains-svc', portEnv: 'DOMAINS_PORT', urlEnv: 'DOMAINS_URL', defaultPort: 8081 },
  { name: 'billing-svc', portEnv: 'BILLING_PORT', urlEnv: 'BILLING_URL', defaultPort: 8082 },
  { name: 'merchants-svc', portEnv: 'MERCHANTS_PORT', urlEnv: 'MERCHANTS_URL', defaultPort: 8083 },
  { name: 'consent-svc', portEnv: 'CONSENT_PORT', urlEnv: 'CONSENT_URL', defaultPort: 8084 },
  { name: 'webhook-svc', portEnv: 'WEBHOOK_PORT', urlEnv: 'WEBHOOKS_URL', defaultPort: 8085 },
  { name: 'gateway', portEnv: 'GATEWAY_PORT', urlEnv: 'GATEWAY_URL', defaultPort: 8080 },
] as const;
export type ProcessName = (typeof SERVICES)[number]['name'];

export interface LaunchOptions {
  /** Folder holding dist/apps/<name>/main.js; defaults to the repository's dist/. */
  distDir?: string;
  databaseUrl: string;
  amqpUrl: string;
  /** Fixed ports (npm start) or ephemeral ones (tests, the default). */
  fixedPorts?: boolean;
  /** Extra env for every process, and per process. */
  env?: NodeJS.ProcessEnv;
  envFor?: Partial<Record<ProcessName, NodeJS.ProcessEnv>>;
  inheritOutput?: boolean;
}

export interface Platform {
  urls: Record<ProcessName, string>;
  env: NodeJS.ProcessEnv;
  processes: Map<ProcessName, ManagedProcess>;
  /** Starts (or starts again) one process with the shared env plus extra; waits until it is ready. */
  start(name: ProcessName, extraEnv?: NodeJS.ProcessEnv): Promise<ManagedProcess>;
  stop(): Promise<void>;
  /** Runs the gateway's admin CLI with --json and returns its one JSON object. */
  admin<T = Record<string, unknown>>(...args: string[]): Promise<T>;
}

/** dist/ of the repository the command runs from (npm scripts and Nx run at the root). */
export const defaultDistDir = () => path.resolve(process.cwd(), 'dist');

/** Runs every service as its own process on this machine, wired together through env. */
export async function launchPlatform(options: LaunchOptions): Promise<Platform> {
  const distDir = options.distDir ?? process.env.PLATFORM_DIST_DIR ?? defaultDistDir();
  const keys = generateInternalKeyPair();
  const ports = {} as Record<ProcessName, number>;
  for (const s of SERVICES) ports[s.name] = options.fixedPorts ? Number(process.env[s.portEnv] ?? s.defaultPort) : await freePort();
  const urls = {} as Record<ProcessName, string>;
  for (const s of SERVICES) urls[s.name] = `http://127.0.0.1:${ports[s.name]}`;

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Local runs and tests migrate at boot; production runs each service's migrate.js instead.
    MIGRATE_ON_BOOT: process.env.MIGRATE_ON_BOOT ?? 'true',
    DATABASE_URL: options.databaseUrl,
    AMQP_URL: options.amqpUrl,
    INTERNAL_JWT_PRIVATE_KEY: process.env.INTERNAL_JWT_PRIVATE_KEY ?? keys.privateKey,
    INTERNAL_JWT_PUBLIC_KEY: process.env.INTERNAL_JWT_PUBLIC_KEY ?? keys.publicKey,
    WIDGET_BASE_URL: process.env.WIDGET_BASE_URL ?? urls.gateway,
    ...Object.fromEntries(SERVICES.flatMap((s) => [[s.portEnv, String(ports[s.name])], [s.urlEnv, urls[s.name]]])),
    ...options.env,
  };

  const processes = new Map<ProcessName, ManagedProcess>();
  const start = async (name: ProcessName, extraEnv: NodeJS.ProcessEnv = {}) => {
    await processes.get(name)?.stop();
    const proc = startProcess({
      name,
      script: path.join(distDir, 'apps', name, 'main.js'),
      env: { ...env, ...options.envFor?.[name], ...extraEnv },
      inheritOutput: options.inheritOutput,
    });
    processes.set(name, proc);
    await waitUntilReady(proc, `${urls[name]}/health/ready`);
    return proc;
  };
  const stop = async () => {
    await Promise.all([...processes.values()].map((p) => p.stop()));
  };

  try {
    // Services first (they migrate their own schemas), the gateway last.
    await Promise.all(SERVICES.filter((s) => s.name !== 'gateway').map((s) => start(s.name)));
    await start('gateway');
  } catch (err) {
    await stop();
    throw err;
  }

  const admin = async <T>(...args: string[]): Promise<T> => {
    const { stdout } = await run(process.execPath, [path.join(distDir, 'apps', 'gateway', 'admin.js'), ...args, '--json'], { env });
    return JSON.parse(stdout) as T;
  };
  return { urls, env, processes, start, stop, admin };
}

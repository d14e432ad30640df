import { z } from 'zod';
import { env } from './env';

/** Where a listener is configured: the variables naming its port and host, and its default port. */
export interface Listen {
  portEnv: string;
  hostEnv: string;
  defaultPort: number;
}

/**
 * Every process of the platform: the one table of its ports and addresses. A process listens on
 * `<prefix>_PORT` / `<prefix>_HOST` (default: the port here, on loopback) and has an operator
 * listener on `<prefix>_ADMIN_PORT` / `<prefix>_ADMIN_HOST` (default: the port + 1000); a service
 * is called by the gateway and the other services at `<prefix>_URL` (default: its port on
 * loopback). The services, the gateway and the launcher (npm start, tests) read this table;
 * docker-compose.yml names the same ports for its containers.
 */
export const PLATFORM_PROCESSES = [
  { app: 'gateway', prefix: 'GATEWAY', port: 8080 },
  { app: 'domains-svc', service: 'domains', prefix: 'DOMAINS', port: 8081 },
  { app: 'billing-svc', service: 'billing', prefix: 'BILLING', port: 8082 },
  { app: 'merchants-svc', service: 'merchants', prefix: 'MERCHANTS', port: 8083 },
  { app: 'consent-svc', service: 'consent', prefix: 'CONSENT', port: 8084 },
  { app: 'webhook-svc', service: 'webhooks', prefix: 'WEBHOOKS', port: 8085 },
] as const;

type PlatformProcess = (typeof PLATFORM_PROCESSES)[number];
/** A deployable process (dist/apps/<app>). */
export type PlatformApp = PlatformProcess['app'];
type PlatformService = Extract<PlatformProcess, { service: string }>;
/** A service the gateway routes to and services call (the route table's `service`). */
export type ServiceTarget = PlatformService['service'];
type UrlEnv = `${PlatformService['prefix']}_URL`;

const SERVICES = PLATFORM_PROCESSES.filter((p): p is PlatformService => 'service' in p);
const processOf = (app: PlatformApp) => PLATFORM_PROCESSES.find((p) => p.app === app)!;

/** Loopback unless configured: nothing listens on an address partners reach by default. */
export const LOOPBACK = '127.0.0.1';
export const loopbackUrl = (port: number) => `http://${LOOPBACK}:${port}`;

/** The partners' listener of a process, from the table. */
export function listenOf(app: PlatformApp): Listen {
  const { prefix, port } = processOf(app);
  return { portEnv: `${prefix}_PORT`, hostEnv: `${prefix}_HOST`, defaultPort: port };
}

/**
 * The operator listener's variables, named after the public ones: DOMAINS_PORT ->
 * DOMAINS_ADMIN_PORT, DOMAINS_HOST -> DOMAINS_ADMIN_HOST; its default port is the public one + 1000.
 */
export const adminListen = (listen: Listen): Listen => ({
  portEnv: `${listen.portEnv.replace(/_PORT$/, '')}_ADMIN_PORT`,
  hostEnv: `${listen.hostEnv.replace(/_HOST$/, '')}_ADMIN_HOST`,
  defaultPort: listen.defaultPort + 1000,
});

/** The variable holding a process's URL (`DOMAINS_URL` ...), set by the launcher for every process. */
export const urlEnvOf = (app: PlatformApp) => `${processOf(app).prefix}_URL`;

/** A process's address on this machine at its default port, e.g. http://127.0.0.1:8080 for the gateway. */
export const defaultUrlOf = (app: PlatformApp) => loopbackUrl(processOf(app).port);

/** The variables of a listener and its operator listener, with their defaults: a config schema's fragment. */
export function listenerEnv(listen: Listen) {
  const admin = adminListen(listen);
  return {
    [listen.portEnv]: env.port(listen.defaultPort),
    [listen.hostEnv]: z.string().default(LOOPBACK),
    [admin.portEnv]: env.port(admin.defaultPort),
    [admin.hostEnv]: z.string().default(LOOPBACK),
  };
}

/** DOMAINS_URL ... WEBHOOKS_URL, each defaulting to its service's port on loopback: where the gateway and services call them. */
export const serviceUrlsEnv = Object.fromEntries(
  SERVICES.map((s) => [`${s.prefix}_URL`, z.string().url().default(loopbackUrl(s.port))]),
) as Record<UrlEnv, z.ZodDefault<z.ZodString>>;

/** Where a service answers, from a configuration parsed with serviceUrlsEnv. */
export const serviceUrl = (config: Record<UrlEnv, string>, target: ServiceTarget): string =>
  config[`${SERVICES.find((s) => s.service === target)!.prefix}_URL`];

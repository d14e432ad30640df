import { adminListen, listenOf, PLATFORM_PROCESSES, urlEnvOf, type PlatformApp } from '@platform/config';
import { consumerQueueNames, DEFAULT_RETRY_DELAYS_MS } from '@platform/messaging';
import type { PortClaim } from './ports';

export type ProcessName = PlatformApp;

/**
 * Every deployable process of the platform, from the one table of ports (libs/config): the env
 * variables naming its port, its URL and its admin (operator) port (health, readiness and
 * /metrics, loopback only), with their defaults.
 */
export const PROCESSES = PLATFORM_PROCESSES.map(({ app }) => {
  const listen = listenOf(app);
  const admin = adminListen(listen);
  return {
    name: app,
    portEnv: listen.portEnv,
    urlEnv: urlEnvOf(app),
    defaultPort: listen.defaultPort,
    adminPortEnv: admin.portEnv,
    defaultAdminPort: admin.defaultPort,
  };
});

/** Every queue the platform's consumers may declare on an exchange (work, retries, parked per service), to delete after a run. */
export const platformQueues = (exchange: string): string[] =>
  PROCESSES.flatMap(({ name }) => {
    const names = consumerQueueNames(`${exchange}.${name}`, DEFAULT_RETRY_DELAYS_MS.length);
    return [names.work, names.parked, ...names.retry];
  });

/** The fixed ports of every process (npm start), public then admin: the *_PORT variables of env, or the defaults. */
export function platformPorts(env: NodeJS.ProcessEnv = process.env): PortClaim[] {
  return [
    ...PROCESSES.map((s) => ({ port: Number(env[s.portEnv] ?? s.defaultPort), owner: s.name, env: s.portEnv })),
    ...PROCESSES.map((s) => ({
      port: Number(env[s.adminPortEnv] ?? s.defaultAdminPort),
      owner: `${s.name} admin`,
      env: s.adminPortEnv,
    })),
  ];
}

import { createPublicKey, randomBytes } from 'node:crypto';
import { generateInternalKeyPair, generateRecordSigningKeys } from '@platform/auth';
import { loopbackUrl } from '@platform/config';
import type { LaunchOptions, Platform } from './platform.types';
import { assertPortsFree, freePort } from './ports';
import { PROCESSES, platformPorts, type ProcessName } from './processes';

/** Signing keys only one kind of process may hold: the gateway's, and the services' own. */
const GATEWAY_ONLY = ['INTERNAL_JWT_PRIVATE_KEY'];
const SERVICES_ONLY = ['SERVICE_JWT_PRIVATE_KEY'];
/** consent-svc's record signing keys (private): only it holds them. */
const CONSENT_ONLY = ['RECORD_SIGNING_KEYS'];

export type Keys = Platform['keys'];
export type Ports = { ports: Record<ProcessName, number>; adminPorts: Record<ProcessName, number> };

/** The key pair given (its public half derived when only the private one is), else a new one. */
function keyPair(privateKey?: string, publicKey?: string): { privateKey: string; publicKey: string } {
  if (!privateKey) return generateInternalKeyPair();
  return {
    privateKey,
    publicKey:
      publicKey ?? createPublicKey(privateKey.replace(/\\n/g, '\n')).export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The key pairs of a launch: given ones (inherited or in env) are used, else new ones are made. */
export function launchKeys(given: NodeJS.ProcessEnv): Keys {
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

/** Each process's port and admin port: the fixed ones (checked free first) or ephemeral ones. */
export async function launchPorts(fixedPorts: boolean | undefined): Promise<Ports> {
  const ports = {} as Record<ProcessName, number>;
  const adminPorts = {} as Record<ProcessName, number>;
  if (fixedPorts) {
    const claims = platformPorts(process.env);
    await assertPortsFree(claims);
    for (const [i, s] of PROCESSES.entries()) {
      ports[s.name] = claims[i].port;
      adminPorts[s.name] = claims[PROCESSES.length + i].port;
    }
  } else {
    for (const s of PROCESSES) {
      ports[s.name] = await freePort();
      adminPorts[s.name] = await freePort();
    }
  }
  return { ports, adminPorts };
}

/** Each process's address on loopback at its port. */
export const loopbackUrls = (ports: Record<ProcessName, number>) =>
  Object.fromEntries(PROCESSES.map((s) => [s.name, loopbackUrl(ports[s.name])])) as Record<ProcessName, string>;

/** The environment every process shares: no private key in it (see processEnv). */
export function sharedEnv(
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
    // Sign-in links in portal e-mails point here (the gateway serves the portal under /app/).
    PORTAL_URL: source.PORTAL_URL ?? `${urls.gateway}/app`,
    // Local runs: one key for this launch (npm start keeps one in a file), and webhook endpoints on this machine.
    WEBHOOK_SECRET_KEY: source.WEBHOOK_SECRET_KEY ?? randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_LOOPBACK: source.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    ...Object.fromEntries(
      PROCESSES.flatMap((s) => [
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

/** A process's whole env: the shared one plus the private keys it alone holds. */
export const processEnv =
  (env: NodeJS.ProcessEnv, keys: Keys) =>
  (name: ProcessName): NodeJS.ProcessEnv => {
    if (name === 'gateway') return { ...env, INTERNAL_JWT_PRIVATE_KEY: keys.gatewayPrivateKey };
    const own = { ...env, SERVICE_JWT_PRIVATE_KEY: keys.servicesPrivateKey };
    return name === 'consent-svc' ? { ...own, RECORD_SIGNING_KEYS: keys.recordSigningKeys } : own;
  };

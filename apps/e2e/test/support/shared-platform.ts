import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultDistDir, launchPlatform, platformQueues, type ProcessName } from '@platform/launcher';
import { countBoot } from './boots';
import { createTestDatabase, deleteEventTopology, startSmtpServer, testInfra, uniqueName } from '@platform/testing';

/** Webhook retries scaled down: attempts at about 0, 300 ms and 600 ms; then failed. */
export const FAST_WEBHOOKS = {
  WEBHOOK_RETRY_SCHEDULE: '0,300ms,600ms',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
  WEBHOOK_TOTAL_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '8000',
  WEBHOOK_BREAKER_RESET_MS: '3000',
};

/**
 * Scans of suites that do not test the scanner (SCAN and SCAN_INVITE creates) reach nothing
 * beyond this machine: every site maps to a closed port on 127.0.0.1, so no name is resolved
 * and each scan fails at once (the invitation of a SCAN_INVITE still follows).
 */
export const LOCAL_SCANS = {
  SCANNER_ALLOW_LOOPBACK: 'true',
  SCANNER_CONNECT_TO: '*:443:127.0.0.1:9,*:80:127.0.0.1:9',
  SCANNER_MODE: 'http',
  SCANNER_POLL_MS: '100',
};

/**
 * The settings of the platform every suite shares: no rate limit (nor failed-authentication
 * throttle, nor public (widget, onboarding widgets) limits: every suite calls from 127.0.0.1) in the way of fuzzing and bursts, fast webhook
 * retries, and the tests as a trusted proxy (a suite may name a visitor's address in X-Forwarded-For).
 * A suite that needs other settings tests them at the component that reads them, or starts a platform of its own.
 */
export const SHARED_ENV = {
  RATE_LIMIT_PER_MINUTE: '1000000',
  TRUSTED_PROXIES: 'loopback',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  PUBLIC_RATE_LIMIT_PER_ADDRESS: '1000000',
  PUBLIC_RATE_LIMIT_PER_PROPERTY: '1000000',
  ONBOARDING_REGISTRATIONS_PER_ADDRESS: '1000000',
  ONBOARDING_SCANS_PER_ADDRESS: '1000000',
  ...FAST_WEBHOOKS,
  ...LOCAL_SCANS,
};

/** What a test file needs to reach the shared platform, handed over in a JSON file. */
export interface SharedPlatform {
  urls: Record<ProcessName, string>;
  /** Each process's admin listener (readiness, /metrics). */
  adminUrls: Record<ProcessName, string>;
  /** The environment the platform's processes share (no private key), for the admin CLI. */
  env: NodeJS.ProcessEnv;
  distDir: string;
  exchange: string;
  databaseUrl: string;
  /** Where the platform's SMTP server writes each e-mail (see mailboxIn). */
  mailDir: string;
}

/** The variable naming the JSON file; set by Jest's globalSetup, inherited by every test file. */
const HANDOVER = 'E2E_SHARED_PLATFORM';

/** Starts the shared platform on a fresh database and exchange, and hands it over through HANDOVER; returns how to end it. */
export async function startSharedPlatform(): Promise<() => Promise<void>> {
  const { amqpUrl } = await testInfra();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-shared-'));
  const db = await createTestDatabase('system');
  const smtp = await startSmtpServer({ folder: path.join(dir, 'mail') });
  const exchange = uniqueName('events');
  const end = async (queues = platformQueues(exchange)) => {
    await smtp.close();
    await db.drop();
    // The services declared the exchange, its unrouted exchange and queue, and their consumers' queues.
    await deleteEventTopology(amqpUrl, exchange, queues);
    await rm(dir, { recursive: true, force: true });
  };
  const distDir = process.env.PLATFORM_DIST_DIR ?? defaultDistDir();
  await countBoot('shared (globalSetup)');
  const platform = await launchPlatform({
    distDir,
    databaseUrl: db.url,
    amqpUrl,
    env: { LOG_LEVEL: 'warn', EVENTS_EXCHANGE: exchange, SMTP_URL: smtp.url, ...SHARED_ENV },
  }).catch(async (err: unknown) => {
    await end();
    throw err;
  });
  const shared: SharedPlatform = {
    urls: platform.urls,
    adminUrls: platform.adminUrls,
    env: platform.env,
    distDir,
    exchange,
    databaseUrl: db.url,
    mailDir: path.join(dir, 'mail'),
  };
  await writeFile(path.join(dir, 'platform.json'), JSON.stringify(shared));
  process.env[HANDOVER] = path.join(dir, 'platform.json');
  return async () => {
    try {
      await platform.stop();
    } finally {
      await end(platform.queues());
    }
  };
}

/** The shared platform Jest's globalSetup started. */
export async function sharedPlatform(): Promise<SharedPlatform> {
  const file = process.env[HANDOVER];
  if (!file)
    throw new Error(
      `${HANDOVER} is not set: the shared platform starts in apps/e2e's globalSetup (run the suites with -c apps/e2e/jest.config.js)`,
    );
  return JSON.parse(await readFile(file, 'utf8')) as SharedPlatform;
}

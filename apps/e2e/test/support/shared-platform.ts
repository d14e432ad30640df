import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
 * The shared platform's local web: the home page of every name under this one is served on
 * 127.0.0.1 from a file a suite writes (writeLocalSite), e.g. for the install check; scans and
 * checks of any other name still reach only a closed port (LOCAL_SCANS).
 */
export const LOCAL_SITES = 'sites.e2e-local.example.com';

/**
 * GET / of a host under LOCAL_SITES answers <dir>/<host>.html (404 without one), with the lines of
 * <dir>/<host>.cookies as its Set-Cookie headers; nothing else is served.
 */
async function startLocalSites(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  await mkdir(dir, { recursive: true });
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    if (req.url !== '/' || !host.endsWith(`.${LOCAL_SITES}`) || !/^[a-z0-9.-]+$/.test(host))
      return void res.writeHead(404).end();
    const file = (ext: string) => readFile(path.join(dir, `${host}.${ext}`), 'utf8');
    Promise.all([file('html'), file('cookies').catch(() => '')]).then(
      ([page, cookies]) =>
        res
          .writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'set-cookie': cookies.split('\n').filter(Boolean),
          })
          .end(page),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The settings of the platform every suite shares: no rate limit (nor failed-authentication
 * throttle, nor public (widget, onboarding widgets, data subject requests) limits: every suite calls from 127.0.0.1) in the way of fuzzing and bursts, fast webhook
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
  ONBOARDING_SCANS_PER_PARTNER: '1000000',
  ONBOARDING_SCANS_PER_HOSTNAME: '1000000',
  DSAR_PER_CLIENT_PER_HOUR: '1000000',
  DSAR_PER_PROPERTY_PER_HOUR: '1000000',
  DSAR_PER_ADDRESS_PER_HOUR: '1000000',
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
  /** The local web's pages, <host>.html (see LOCAL_SITES). */
  sitesDir: string;
  /** The local web's port on 127.0.0.1 (a browser test maps the site's name there). */
  sitesPort: number;
}

/** The variable naming the JSON file; set by Jest's globalSetup, inherited by every test file. */
const HANDOVER = 'E2E_SHARED_PLATFORM';

/** Starts the shared platform on a fresh database and exchange, and hands it over through HANDOVER; returns how to end it. */
export async function startSharedPlatform(): Promise<() => Promise<void>> {
  const { amqpUrl } = await testInfra();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-shared-'));
  const db = await createTestDatabase('system');
  const smtp = await startSmtpServer({ folder: path.join(dir, 'mail') });
  const sites = await startLocalSites(path.join(dir, 'sites'));
  const exchange = uniqueName('events');
  const end = async (queues = platformQueues(exchange)) => {
    await smtp.close();
    await sites.close();
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
    env: {
      LOG_LEVEL: 'warn',
      EVENTS_EXCHANGE: exchange,
      SMTP_URL: smtp.url,
      ...SHARED_ENV,
      // The local web first (https there is a closed port, so http is read); every other site as LOCAL_SCANS.
      SCANNER_CONNECT_TO: `*:443:127.0.0.1:9,*.${LOCAL_SITES}:80:127.0.0.1:${sites.port},*:80:127.0.0.1:9`,
    },
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
    sitesDir: path.join(dir, 'sites'),
    sitesPort: sites.port,
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

/** Puts a home page (and the cookies it sets) on the shared platform's local web: `hostname` must be a name under LOCAL_SITES. */
export async function writeLocalSite(hostname: string, html: string, setCookies: string[] = []): Promise<void> {
  if (!hostname.endsWith(`.${LOCAL_SITES}`)) throw new Error(`${hostname} is not under ${LOCAL_SITES}`);
  const { sitesDir } = await sharedPlatform();
  await writeFile(path.join(sitesDir, `${hostname}.cookies`), setCookies.join('\n'));
  await writeFile(path.join(sitesDir, `${hostname}.html`), html);
}

/** The address a browser opens a local web site at (its name mapped to 127.0.0.1 by launchChromium). */
export async function localSiteUrl(hostname: string): Promise<string> {
  return `http://${hostname}:${(await sharedPlatform()).sitesPort}/`;
}

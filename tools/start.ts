// `npm start`: checks PostgreSQL and RabbitMQ, refuses ports already taken, runs a local mail
// catcher, starts every service with this shell's whole environment (each migrates its schema),
// restarts one that dies, creates a demo partner with an API key and prints how to call the API.
// Ctrl+C stops everything.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateRecordSigningKeys } from '@platform/auth';
import amqp from 'amqplib';
import { brokerUrls } from '@platform/messaging';
import { Client } from 'pg';
import {
  assertPortsFree,
  launchPlatform,
  platformPorts,
  PortsInUseError,
  startMailFolder,
  type PortClaim,
  type Platform,
  type SmtpCatcher,
} from '@platform/launcher';

// Keep the console readable: the banner matters more than info logs here (LOG_LEVEL=info to see them).
process.env.LOG_LEVEL ??= 'warn';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/g, '//$1:***@'); // every URL of a list

function fail(message: string): never {
  console.error(`\n  ✖ ${message}\n`);
  process.exit(1);
}

async function checkPostgres() {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (err) {
    fail(`PostgreSQL is not reachable at ${redact(databaseUrl)} (${(err as Error).message}).
    Start it (e.g. pg_ctlcluster <version> main start, or docker compose up postgres) or set DATABASE_URL.`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One reachable node is enough when AMQP_URL lists a cluster's nodes: the services move to another if it dies. */
async function checkRabbit() {
  const errors: string[] = [];
  for (const url of brokerUrls(amqpUrl)) {
    try {
      const conn = await amqp.connect(url, { timeout: 3000 });
      await conn.close();
      return;
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  fail(`RabbitMQ is not reachable at ${redact(amqpUrl)} (${errors.join('; ')}).
    Start it (e.g. rabbitmq-server -detached, or docker compose up rabbitmq) or set AMQP_URL.`);
}

/** Unless SMTP_URL names a server of yours, e-mails are caught locally and kept as files. */
const mailCatcherPort: PortClaim | undefined = process.env.SMTP_URL
  ? undefined
  : { port: Number(process.env.MAIL_CATCHER_PORT ?? 1025), owner: 'mail catcher', env: 'MAIL_CATCHER_PORT' };

async function startMailCatcher(): Promise<{ catcher?: SmtpCatcher; where: string }> {
  if (!mailCatcherPort) return { where: `sent to ${process.env.SMTP_URL}` };
  const folder = path.resolve(process.env.MAIL_DIR ?? path.join(__dirname, '..', '..', '.mail'));
  const catcher = await startMailFolder(mailCatcherPort.port, folder);
  process.env.SMTP_URL = catcher.url;
  return { catcher, where: `${folder} (one .eml file per e-mail)` };
}

/**
 * Signing secrets of webhook endpoints are stored encrypted with WEBHOOK_SECRET_KEY: unless it is
 * set, one is generated once and kept in .webhook-secret-key, so endpoints survive a restart.
 */
function localWebhookSecretKey(): string {
  const file = path.resolve(__dirname, '..', '..', '.webhook-secret-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * consent-svc signs records with RECORD_SIGNING_KEYS: unless it is set, a key is generated once
 * and kept in .record-signing-keys, so records signed before a restart still verify.
 */
function localRecordSigningKeys(): string {
  const file = path.resolve(__dirname, '..', '..', '.record-signing-keys');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const keys = generateRecordSigningKeys();
  writeFileSync(file, `${keys}\n`, { mode: 0o600 });
  return keys;
}

/** The demo partner's first portal administrator. */
const DEMO_ADMIN = process.env.DEMO_ADMIN_EMAIL ?? 'admin@demo.test';

async function main() {
  // Before anything starts, so a second npm start creates nothing (no catcher, partner or key).
  await assertPortsFree([...platformPorts(process.env), ...(mailCatcherPort ? [mailCatcherPort] : [])]).catch(
    (err: unknown) => {
      if (err instanceof PortsInUseError) fail(err.message);
      throw err;
    },
  );
  await checkPostgres();
  await checkRabbit();
  const mail = await startMailCatcher();
  process.env.WEBHOOK_SECRET_KEY ??= localWebhookSecretKey();
  process.env.RECORD_SIGNING_KEYS ??= localRecordSigningKeys();
  let platform: Platform;
  try {
    platform = await launchPlatform({
      distDir: path.resolve(__dirname, '..'),
      databaseUrl,
      amqpUrl,
      fixedPorts: true,
      inheritEnv: true,
      supervise: true,
      inheritOutput: true,
    });
  } catch (err) {
    await mail.catcher?.close();
    if (err instanceof PortsInUseError) fail(err.message);
    throw err;
  }
  let stopped: Promise<void> | undefined;
  // Every process stops (no restart), then the catcher; a second Ctrl+C does not start it twice.
  const stopAll = () => (stopped ??= platform.stop().then(() => mail.catcher?.close()));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => void stopAll().then(() => process.exit(0)));

  let demo: { id: string };
  let key: { key: string };
  let admin: { sign_in_url: string; user: { email: string } };
  try {
    const partners = await platform.admin<{ result: { id: string; name: string }[] }>('partner', 'list');
    demo =
      partners.result.find((p) => p.name === 'Demo Partner') ??
      (await platform.admin<{ id: string }>('partner', 'create', '--name', 'Demo Partner'));
    key = await platform.admin<{ key: string }>('key', 'create', '--partner', demo.id, '--name', 'npm start');
    // The demo partner's first administrator (a second npm start sends them a new link).
    admin = await platform.admin(
      'user',
      'invite',
      '--partner',
      demo.id,
      '--email',
      DEMO_ADMIN,
      '--role',
      'ADMINISTRATOR',
    );
  } catch (err) {
    // Leave no service running behind a failed start.
    await stopAll();
    fail(`could not create the demo partner and its API key: ${err instanceof Error ? err.message : String(err)}`);
  }
  const gateway = platform.urls.gateway;
  const portalUrl = process.env.PORTAL_URL ?? `${gateway}/app`;
  console.log(`
  ✔ Partner platform is running
    Gateway        ${gateway}
    API reference  ${gateway}/docs   (OpenAPI: ${gateway}/openapi.json)
    Demo partner   ${demo.id}
    API key        ${key.key}
    Portal         ${portalUrl}   (sign in as ${admin.user.email}, also e-mailed:)
    Sign-in link   ${admin.sign_in_url}   (works once, for 15 minutes; npm run admin -- user invite ... for more)

    E-mails        ${mail.where}
    Metrics        ${platform.adminUrls.gateway}/metrics   (admin ports, this machine only; see docs/operations.md)

    curl -H "Authorization: Bearer ${key.key}" ${gateway}/portal/domains

    Webhooks       endpoints on this machine are allowed (WEBHOOK_ALLOW_LOOPBACK=true), e.g.
    curl -H "Authorization: Bearer ${key.key}" -H "Content-Type: application/json" \\
         -d '{"url":"http://127.0.0.1:9000/hooks"}' ${gateway}/portal/webhooks

    Reminders      activation reminders fall due on day 2, 7, 14 and 30 of ACTIVATION_REMINDER_DAY_MS
                   (${process.env.ACTIVATION_REMINDER_DAY_MS ?? '86400000'} ms); ACTIVATION_REMINDER_DAY_MS=2000 npm start runs them in a minute.

  A service that dies is restarted (with back-off; see the [launcher] lines).
  Ctrl+C stops every service.
`);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));

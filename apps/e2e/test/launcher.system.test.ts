import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@platform/launcher';
import { createTestDatabase, deleteBrokerTopology, testInfra, uniqueName, waitFor } from '@platform/testing';

const run = promisify(execFile);
const START = path.resolve(__dirname, '../../../dist/tools/start.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startNpmStart(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [START], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The pid of the platform process running dist/apps/<app>/main.js under this npm start. */
async function childPid(parent: number, app: string): Promise<number | undefined> {
  const { stdout } = await run('pgrep', ['-P', String(parent), '-f', `dist/apps/${app}/main.js`]).catch(() => ({ stdout: '' }));
  const pid = Number(stdout.trim().split('\n')[0]);
  return pid > 0 ? pid : undefined;
}

describe('npm start', () => {
  let first: Started;
  let env: NodeJS.ProcessEnv;
  let gateway: string;
  let domains: string;
  let key: string;
  let mailDir: string;
  let db: { url: string; drop: () => Promise<void> };
  const exchange = uniqueName('start_events');

  beforeAll(async () => {
    const { amqpUrl } = await testInfra();
    db = await createTestDatabase('start');
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'mail-'));
    const ports = { GATEWAY_PORT: await freePort(), DOMAINS_PORT: await freePort(), BILLING_PORT: await freePort(), MERCHANTS_PORT: await freePort(), CONSENT_PORT: await freePort(), WEBHOOK_PORT: await freePort(), MAIL_CATCHER_PORT: await freePort() };
    env = {
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DATABASE_URL: db.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      MAIL_DIR: mailDir,
      // A setting only the gateway reads: proof that npm start passes the whole environment on.
      RATE_LIMIT_PER_MINUTE: '5',
    };
    gateway = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
    domains = `http://127.0.0.1:${ports.DOMAINS_PORT}`;
    first = startNpmStart(env);
    await waitFor(() => first.output().includes('Partner platform is running'), { timeoutMs: 60_000, what: 'the banner' });
    key = /API key\s+(\S+)/.exec(first.output())![1];
  });

  afterAll(async () => {
    first?.child.kill('SIGINT');
    await first?.exited;
    await db?.drop();
    await rm(mailDir, { recursive: true, force: true });
    await deleteBrokerTopology((await testInfra()).amqpUrl, { exchanges: [exchange, `${exchange}.unrouted`], queues: [`${exchange}.unrouted`] });
  });

  it('when a setting is given to npm start, then the service reading it gets it (rate limit 5 per minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${gateway}/portal/domains`, { headers: { authorization: `Bearer ${key}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('when the platform sends an e-mail, then it lands as a .eml file in the mail folder', async () => {
    // A key of its own: the first one used up its window in the previous test.
    const partnerId = /Demo partner\s+(\S+)/.exec(first.output())![1];
    const admin = path.resolve(__dirname, '../../../dist/apps/gateway/admin.js');
    const other = JSON.parse((await run(process.execPath, [admin, 'key', 'create', '--partner', partnerId, '--json'], { env: { ...process.env, DATABASE_URL: db.url } })).stdout).key;
    const res = await fetch(`${gateway}/portal/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'launcher-mail.example.com', company_name: 'Mail Co', account_email: 'owner@launcher-mail.example.com', action: 'SCAN_INVITE' }),
    });
    expect(res.status).toBe(200);
    const file = await waitFor(async () => (await readdir(mailDir)).find((f) => f.endsWith('.eml')), { timeoutMs: 15_000, what: 'a .eml file' });
    const mail = await readFile(path.join(mailDir, file), 'utf8');
    expect(mail).toMatch(/^To: owner@launcher-mail\.example\.com$/m);
    expect(mail).toContain('Subject: Activate the privacy widget on launcher-mail.example.com');
  });

  it('when a service is killed with SIGKILL, then it is logged and back within a few seconds, as a new process', async () => {
    const before = await childPid(first.child.pid!, 'domains-svc');
    expect(before).toBeDefined();
    process.kill(before!, 'SIGKILL');
    const after = await waitFor(
      async () => {
        const pid = await childPid(first.child.pid!, 'domains-svc');
        return pid !== undefined && pid !== before && (await fetch(`${domains}/health/ready`).then((r) => r.ok, () => false)) ? pid : undefined;
      },
      { timeoutMs: 15_000, what: 'domains-svc back' },
    );
    expect(after).not.toBe(before);
    expect(first.output()).toContain('[launcher] domains-svc exited (signal SIGKILL); restarting in 1s');
  });

  it('when a second npm start runs on the same ports, then it exits 1 at once, names the ports and starts nothing', async () => {
    const second = startNpmStart({ ...env, MAIL_CATCHER_PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already in use: is another npm start running\?/);
    expect(second.output()).toContain(`${new URL(gateway).port} (gateway, GATEWAY_PORT)`);
    expect(second.output()).not.toContain('Partner platform is running');
    // The first one still answers.
    expect((await fetch(`${gateway}/health/ready`)).status).toBe(200);
  });

  it('when the processes run, then only the gateway holds the gateway\'s private key, and only services the services\' one', async () => {
    const names = async (app: string) => {
      const pid = await childPid(first.child.pid!, app);
      const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
      return environ.split('\0').map((kv) => kv.split('=')[0]).filter((k) => k.endsWith('_PRIVATE_KEY'));
    };
    expect(await names('gateway')).toEqual(['INTERNAL_JWT_PRIVATE_KEY']);
    for (const app of ['domains-svc', 'billing-svc', 'webhook-svc']) expect(await names(app)).toEqual(['SERVICE_JWT_PRIVATE_KEY']);
  });

  it('when npm start is stopped with Ctrl+C, then no platform process is left', async () => {
    const parent = first.child.pid!;
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(await childPid(parent, 'domains-svc')).toBeUndefined();
    await expect(fetch(`${gateway}/health/live`)).rejects.toThrow();
  });
});

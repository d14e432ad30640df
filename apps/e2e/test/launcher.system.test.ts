import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateInternalKeyPair } from '@platform/auth';
import { freePort, launchPlatform, platformQueues, type Platform } from '@platform/launcher';
import { createTestDatabase, deleteEventTopology, testInfra, uniqueName, waitFor } from '@platform/testing';
import { countBoot, currentTestFile } from './support/boots';

const run = promisify(execFile);
const START = path.resolve(__dirname, '../../../dist/tools/start.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startNpmStart(env: NodeJS.ProcessEnv): Started {
  // Its own process group, like a terminal's foreground job: Ctrl+C signals the whole group.
  const child = spawn(process.execPath, [START], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The pid of the platform process running dist/apps/<app>/main.js under this npm start. */
async function childPid(parent: number, app: string): Promise<number | undefined> {
  const { stdout } = await run('pgrep', ['-P', String(parent), '-f', `dist/apps/${app}/main.js`]).catch(() => ({
    stdout: '',
  }));
  const pid = Number(stdout.trim().split('\n')[0]);
  return pid > 0 ? pid : undefined;
}

/** The environment a process runs with, read from /proc. */
async function environOf(pid: number): Promise<Map<string, string>> {
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
  return new Map(
    environ
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

describe('npm start', () => {
  let first: Started;
  let env: NodeJS.ProcessEnv;
  let gateway: string;
  let gatewayAdmin: string;
  let domainsAdmin: string;
  let key: string;
  let mailDir: string;
  let db: { url: string; drop: () => Promise<void> };
  const exchange = uniqueName('start_events');
  const ports: Record<string, number> = {};
  /** The queues the services' ready answers named, read while they run (the tests stop them). */
  let named: string[] = [];
  // Given in npm start's environment, like a developer exporting it: it must reach the gateway alone.
  const gatewayKeys = generateInternalKeyPair();

  beforeAll(async () => {
    const { amqpUrl } = await testInfra();
    db = await createTestDatabase('start');
    mailDir = await mkdtemp(path.join(os.tmpdir(), 'mail-'));
    ports.MAIL_CATCHER_PORT = await freePort();
    for (const app of ['GATEWAY', 'DOMAINS', 'BILLING', 'MERCHANTS', 'CONSENT', 'WEBHOOKS']) {
      ports[`${app}_PORT`] = await freePort();
      ports[`${app}_ADMIN_PORT`] = await freePort();
    }
    env = {
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      DATABASE_URL: db.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      MAIL_DIR: mailDir,
      // A setting only the gateway reads: proof that npm start passes the whole environment on.
      RATE_LIMIT_PER_MINUTE: '5',
      // Scanner settings reach domains-svc the same way (and keep its scans on this machine).
      SCANNER_ALLOW_LOOPBACK: 'true',
      SCANNER_CONNECT_TO: '*:443:127.0.0.1:9,*:80:127.0.0.1:9',
      SCANNER_MODE: 'http',
      INTERNAL_JWT_PRIVATE_KEY: gatewayKeys.privateKey,
      INTERNAL_JWT_PUBLIC_KEY: gatewayKeys.publicKey,
    };
    gateway = `http://127.0.0.1:${ports.GATEWAY_PORT}`;
    gatewayAdmin = `http://127.0.0.1:${ports.GATEWAY_ADMIN_PORT}`;
    domainsAdmin = `http://127.0.0.1:${ports.DOMAINS_ADMIN_PORT}`;
    await countBoot(`${currentTestFile()} (npm start)`);
    first = startNpmStart(env);
    await waitFor(() => first.output().includes('Partner platform is running'), {
      timeoutMs: 60_000,
      what: 'the banner',
    });
    key = /API key\s+(\S+)/.exec(first.output())![1];
    // Each service's ready answer names the queues its consumers declared: deleted after the run.
    const answers = await Promise.all(
      ['DOMAINS', 'BILLING', 'MERCHANTS', 'CONSENT', 'WEBHOOKS'].map((app) =>
        fetch(`http://127.0.0.1:${ports[`${app}_ADMIN_PORT`]}/health/ready`)
          .then((r) => r.json() as Promise<{ queues?: string[] }>)
          .then(
            (b) => b.queues ?? [],
            () => [],
          ),
      ),
    );
    named = answers.flat();
  });

  afterAll(async () => {
    if (first?.child.exitCode === null) {
      first.child.kill('SIGINT');
      await first.exited;
    }
    await db?.drop();
    await rm(mailDir, { recursive: true, force: true });
    await deleteEventTopology((await testInfra()).amqpUrl, exchange, [
      ...new Set([...platformQueues(exchange), ...named]),
    ]);
  });

  it('when a setting is given to npm start, then the service reading it gets it (rate limit 5 per minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await fetch(`${gateway}/portal/domains`, { headers: { authorization: `Bearer ${key}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('when the platform sends an e-mail, then it lands as a .eml file in the mail folder', async () => {
    // A key of its own: the first one used up its window in the previous test.
    const partnerId = /Demo partner\s+(\S+)/.exec(first.output())![1];
    const admin = path.resolve(__dirname, '../../../dist/apps/gateway/admin.js');
    const other = JSON.parse(
      (
        await run(process.execPath, [admin, 'key', 'create', '--partner', partnerId, '--json'], {
          env: { ...process.env, DATABASE_URL: db.url },
        })
      ).stdout,
    ).key;
    const res = await fetch(`${gateway}/portal/domains`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        domain: 'launcher-mail.example.com',
        company_name: 'Mail Co',
        account_email: 'owner@launcher-mail.example.com',
        action: 'SCAN_INVITE',
      }),
    });
    expect(res.status).toBe(200);
    // The demo administrator's invitation lands there too: look for the owner's.
    const mail = await waitFor(
      async () => {
        for (const f of (await readdir(mailDir)).filter((n) => n.endsWith('.eml'))) {
          const text = await readFile(path.join(mailDir, f), 'utf8');
          if (/^To: owner@launcher-mail\.example\.com$/m.test(text)) return text;
        }
        return undefined;
      },
      { timeoutMs: 15_000, what: "the owner's .eml file" },
    );
    expect(mail).toContain('Subject: Activate the privacy widget on launcher-mail.example.com');
  });

  it("when npm start runs, then it prints the portal and the demo administrator's sign-in link, which signs in once", async () => {
    const link = /Sign-in link\s+(\S+)/.exec(first.output())![1];
    expect(link).toMatch(new RegExp(`^${gateway}/app/sign-in#token=[A-Za-z0-9_-]{43}$`));
    expect(first.output()).toMatch(/Portal\s+http:\/\/127\.0\.0\.1:\d+\/app\s+\(sign in as admin@demo\.test/);
    const redeem = () =>
      fetch(`${gateway}/portal/auth/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: link.split('#token=')[1] }),
      });
    const signedIn = await redeem();
    expect(signedIn.status).toBe(201);
    expect(((await signedIn.json()) as { result: { user: { role: string } } }).result.user.role).toBe('ADMINISTRATOR');
    // npm start runs in development: the cookie works on plain http.
    expect(signedIn.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect((await redeem()).status).toBe(401);
  });

  it('when a service is killed with SIGKILL, then it is logged and back within a few seconds, as a new process', async () => {
    const before = await childPid(first.child.pid!, 'domains-svc');
    expect(before).toBeDefined();
    process.kill(before!, 'SIGKILL');
    await waitFor(
      async () => {
        const pid = await childPid(first.child.pid!, 'domains-svc');
        return pid !== undefined &&
          pid !== before &&
          (await fetch(`${domainsAdmin}/health/ready`).then(
            (r) => r.ok,
            () => false,
          ))
          ? pid
          : undefined;
      },
      { timeoutMs: 15_000, what: 'domains-svc back' },
    );
    // The killed process is gone (reaped), not merely replaced in the listing.
    expect(() => process.kill(before!, 0)).toThrow('ESRCH');
    expect(first.output()).toContain('[launcher] domains-svc exited (signal SIGKILL); restarting in 1s');
  });

  it('when a second npm start runs on the same ports, then it exits 1 at once, names each port and the process holding it, and creates nothing', async () => {
    const admin = path.resolve(__dirname, '../../../dist/apps/gateway/admin.js');
    const partnerId = /Demo partner\s+(\S+)/.exec(first.output())![1];
    const keys = async () =>
      JSON.parse(
        (
          await run(process.execPath, [admin, 'key', 'list', '--partner', partnerId, '--json'], {
            env: { ...process.env, DATABASE_URL: db.url },
          })
        ).stdout,
      ).result.length;
    const keysBefore = await keys();
    const gatewayPid = await childPid(first.child.pid!, 'gateway');

    const second = startNpmStart(env);
    expect(await second.exited).toBe(1);
    const out = second.output();
    expect(out).toContain(
      `port ${new URL(gateway).port} (gateway, GATEWAY_PORT) is already in use by pid ${gatewayPid}: `,
    );
    expect(out).toContain(
      `port ${new URL(gatewayAdmin).port} (gateway admin, GATEWAY_ADMIN_PORT) is already in use by pid ${gatewayPid}: `,
    );
    // The mail catcher runs inside the first npm start itself.
    expect(out).toContain(
      `port ${env.MAIL_CATCHER_PORT} (mail catcher, MAIL_CATCHER_PORT) is already in use by pid ${first.child.pid}: `,
    );
    expect(out).toMatch(/Is another npm start running\?.*\n.*GATEWAY_PORT=\d+ /);
    expect(out).not.toContain('Partner platform is running');
    expect(await keys()).toBe(keysBefore);
    // The first one still answers.
    expect((await fetch(`${gatewayAdmin}/health/ready`)).status).toBe(200);
  });

  it("when a key pair is in npm start's environment, then only the gateway gets its private key, and only services the services' one", async () => {
    const privateKeys = async (app: string) => {
      const environ = await environOf((await childPid(first.child.pid!, app))!);
      return [...environ.keys()].filter((k) => k.endsWith('_PRIVATE_KEY'));
    };
    const gatewayEnv = await environOf((await childPid(first.child.pid!, 'gateway'))!);
    expect(gatewayEnv.get('INTERNAL_JWT_PRIVATE_KEY')).toBe(gatewayKeys.privateKey);
    expect(await privateKeys('gateway')).toEqual(['INTERNAL_JWT_PRIVATE_KEY']);
    for (const app of ['domains-svc', 'billing-svc', 'merchants-svc', 'consent-svc', 'webhook-svc']) {
      expect(await privateKeys(app)).toEqual(['SERVICE_JWT_PRIVATE_KEY']);
      expect((await environOf((await childPid(first.child.pid!, app))!)).get('INTERNAL_JWT_PUBLIC_KEY')).toBe(
        gatewayKeys.publicKey,
      );
    }
  });

  it('when SCANNER_* settings are given to npm start, then domains-svc runs with them', async () => {
    const environ = await environOf((await childPid(first.child.pid!, 'domains-svc'))!);
    expect([
      environ.get('SCANNER_MODE'),
      environ.get('SCANNER_CONNECT_TO'),
      environ.get('SCANNER_ALLOW_LOOPBACK'),
    ]).toEqual(['http', env.SCANNER_CONNECT_TO, 'true']);
  });

  it('when npm start runs, then consent-svc alone holds the record signing keys, the ones npm start keeps in .record-signing-keys', async () => {
    const kept = (await readFile(path.resolve(process.cwd(), '.record-signing-keys'), 'utf8')).trim();
    expect(JSON.parse(kept).keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String) });
    for (const app of ['gateway', 'domains-svc', 'billing-svc', 'merchants-svc', 'consent-svc', 'webhook-svc']) {
      const environ = await environOf((await childPid(first.child.pid!, app))!);
      expect({ app, keys: environ.get('RECORD_SIGNING_KEYS') }).toEqual({
        app,
        keys: app === 'consent-svc' ? kept : undefined,
      });
    }
  });

  it('when npm start is stopped with Ctrl+C, then every process of its group exits, none is restarted, and it exits 0', async () => {
    const group = first.child.pid!;
    const before = first.output().length;
    // What Ctrl+C in a terminal does: SIGINT to every process of the foreground group at once.
    process.kill(-group, 'SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.output().slice(before)).not.toContain('[launcher]');
    const left = await run('pgrep', ['-g', String(group)]).then(
      ({ stdout }) => stdout.trim(),
      () => '',
    );
    expect(left).toBe('');
    await expect(fetch(`${gateway}/health/live`)).rejects.toThrow();
  });
});

describe('launchPlatform with supervision', () => {
  let platform: Platform;
  let db: { url: string; drop: () => Promise<void> };
  const lines: string[] = [];
  const exchange = uniqueName('supervised_events');

  beforeAll(async () => {
    const { amqpUrl } = await testInfra();
    db = await createTestDatabase('supervised');
    await countBoot(currentTestFile());
    platform = await launchPlatform({
      databaseUrl: db.url,
      amqpUrl,
      supervise: true,
      log: (line) => lines.push(line),
      env: { LOG_LEVEL: 'warn', EVENTS_EXCHANGE: exchange },
    });
  });

  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
    await deleteEventTopology((await testInfra()).amqpUrl, exchange, platform?.queues() ?? platformQueues(exchange));
  });

  /** Kills the running domains-svc with SIGKILL and waits until a new one is ready. */
  const killAndWaitBack = async () => {
    const before = platform.processes.get('domains-svc')!;
    const backLines = lines.filter((l) => l === '[launcher] domains-svc is back').length;
    before.child.kill('SIGKILL');
    await waitFor(() => lines.filter((l) => l === '[launcher] domains-svc is back').length > backLines, {
      timeoutMs: 15_000,
      what: 'domains-svc back',
    });
    const after = platform.processes.get('domains-svc')!;
    expect(after.child.pid).not.toBe(before.child.pid);
    expect((await fetch(`${platform.adminUrls['domains-svc']}/health/ready`)).status).toBe(200);
  };

  it('when a service dies again soon after a restart, then it is restarted again after a longer wait (1s, then 2s)', async () => {
    await killAndWaitBack();
    await killAndWaitBack();
    expect(lines.filter((l) => l.includes('exited'))).toEqual([
      '[launcher] domains-svc exited (signal SIGKILL); restarting in 1s',
      '[launcher] domains-svc exited (signal SIGKILL); restarting in 2s',
    ]);
    // Still wired: the admin CLI works and the gateway reaches the restarted service.
    const partner = await platform.admin<{ id: string }>('partner', 'create', '--name', uniqueName('supervised'));
    const key = await platform.admin<{ key: string }>('key', 'create', '--partner', partner.id);
    expect(
      (await fetch(`${platform.urls.gateway}/portal/domains`, { headers: { authorization: `Bearer ${key.key}` } }))
        .status,
    ).toBe(200);
  });

  it('when platform.stop() runs, then every process exits and none is restarted', async () => {
    const children = [...platform.processes.values()].map((p) => p.child);
    const logged = lines.length;
    await platform.stop();
    // A crash would have been logged when its exit was seen, which stop() waits for.
    expect(lines.slice(logged)).toEqual([]);
    for (const child of children) expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    expect([...platform.processes.values()].map((p) => p.child)).toEqual(children);
  });
});

// `npm run bench`: every service as a real process, 100,000 domains seeded with SQL over several
// partners, autocannon (32 connections) through the gateway, straight to domains-svc, and against a
// bare node:http server (the machine's ceiling), all in one run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { InternalTokenMinter } from '@platform/auth';
import { PERMISSIONS } from '@platform/contracts';
import { freePort, launchPlatform } from '@platform/launcher';
import { printWidgetSizes } from './widget-size';
import { portalScenarios, printPortalFirstLoad, printPortalScreen } from './portal';
import { deleteEventTopology } from '@platform/messaging';
import { contentionTable, runContentionBench } from './contention';
import { CONNECTIONS, runScenario, table, type Result, type Scenario } from './load';
import { sampleDomainIds, seedDomains } from './seed';
import { runWebhookBench, type WebhookBenchRow } from './webhooks';
import { runReminderBench } from './reminders';
import { fairShareEnv, nginxScenario, printAnchor, runNoisyNeighbour, startNginx } from './fairness';
import { widgetScenarios } from './widget';
import { consentScenarios } from './consent';
import { exportTable, figureScenarios, runExportBench } from './figures';
import { runScanBench, scanTable } from './scans';
import { cpuPerOperation } from './cpu';
import { printScale, runScaleRows } from './scale';
import { IMPORT_ROW_NAME, instancePropertyScenario, printInstanceProperty, runImportBench } from './imports';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const TOTAL_DOMAINS = Number(process.env.BENCH_DOMAINS ?? 100_000);
const PARTNERS = 5;
/** One more partner with this many domains, for the deep-page scenario. */
const DEEP_DOMAINS = Number(process.env.BENCH_DEEP_DOMAINS ?? 100_000);
const DURATION_SEC = Number(process.env.BENCH_DURATION ?? 10);
/** Optional regex over scenario names, e.g. BENCH_ONLY='get by id' (ratios need both sides). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

async function withDb<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
const withAdmin = <T>(fn: (c: Client) => Promise<T>) => withDb(adminUrl, fn);

function startCeiling(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'ceiling.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    createInterface({ input: child.stdout! }).once('line', (port) =>
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill() }),
    );
  });
}

async function main() {
  const dbName = `bench_${Date.now()}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${dbName}`));
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  console.log(`bench database ${dbName}; starting services...`);
  const platform = await launchPlatform({
    distDir: path.resolve(__dirname, '..', '..'),
    databaseUrl,
    amqpUrl,
    // production: answers are not re-validated against their schemas (that check runs in development and tests).
    env: {
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // One partner drives every throughput row on 32 connections: its fair share would hold it to
      // 8 in flight, measuring the cap rather than the system (the noisy-neighbour row restores it).
      FAIR_SHARE_MAX_IN_FLIGHT: '1000',
      ...fairShareEnv(),
      PUBLIC_RATE_LIMIT_PER_ADDRESS: '100000000',
      PUBLIC_RATE_LIMIT_PER_PROPERTY: '100000000',
      // The bench is the widget visitors' proxy: X-Forwarded-For names each visitor (the regime mix).
      TRUSTED_PROXIES: 'loopback',
      EVENTS_EXCHANGE: `${dbName}.events`,
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
    // e.g. BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles every process during the run.
    nodeArgs: process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
  });
  const ceiling = await startCeiling();
  const nginx =
    !ONLY || ONLY.test('nginx get by id')
      ? await startNginx(platform.urls['domains-svc'], await freePort())
      : undefined;
  try {
    const partners: { id: string; key: string }[] = [];
    for (let i = 0; i < PARTNERS; i++) {
      const p = await platform.admin<{ id: string }>('partner', 'create', '--name', `Bench partner ${i}`);
      const k = await platform.admin<{ key: string }>('key', 'create', '--partner', p.id);
      partners.push({ id: p.id, key: k.key });
    }
    const started = Date.now();
    await seedDomains(
      databaseUrl,
      partners.map((p) => p.id),
      Math.floor(TOTAL_DOMAINS / PARTNERS),
    );
    const deepPartner = await platform.admin<{ id: string }>('partner', 'create', '--name', 'Bench deep partner');
    const deepKey = (await platform.admin<{ key: string }>('key', 'create', '--partner', deepPartner.id)).key;
    await seedDomains(databaseUrl, [deepPartner.id], DEEP_DOMAINS, 'deep');
    console.log(
      `seeded ${TOTAL_DOMAINS} domains for ${PARTNERS} partners and ${DEEP_DOMAINS} for one more in ${Date.now() - started} ms`,
    );

    const me = partners[0];
    const ids = await sampleDomainIds(databaseUrl, me.id, 1000);
    const minter = new InternalTokenMinter(platform.keys.gatewayPrivateKey, 3600);
    const internal = minter.mint(
      { partnerId: me.id, keyId: 'bench', permissions: [...PERMISSIONS], requiredFields: [] },
      'domains',
    );
    const viaGateway = { url: platform.urls.gateway, auth: `Bearer ${me.key}` };
    const direct = { url: platform.urls['domains-svc'], auth: `Bearer ${internal}` };
    const consent = consentScenarios(
      { gateway: platform.urls.gateway, consent: platform.urls['consent-svc'] },
      { key: me.key, publicToken: minter.mintPublic('consent') },
    );

    const figures = figureScenarios(platform.urls.gateway, me.key);

    const reads = (name: string, target: { url: string; auth: string }, withTargets: boolean): Scenario[] =>
      [
        {
          name: `${name} list limit=10`,
          paths: ['/portal/domains?limit=10'],
          target: withTargets ? { rps: 2000, p99Ms: 30 } : undefined,
        },
        { name: `${name} list 2 filters`, paths: ['/portal/domains?limit=10&status=NEW&has_scripts=true'] },
        {
          name: `${name} list filtered page 50`,
          paths: ['/portal/domains?limit=10&status=NEW&has_scripts=true&page=50'],
        },
        {
          name: `${name} get by id`,
          paths: ids.map((id) => `/portal/domains/${id}`),
          target: withTargets ? { rps: 3000, p99Ms: 20 } : undefined,
        },
      ].map((s) => ({ ...s, url: target.url, headers: { authorization: target.auth } }));

    const runId = Date.now().toString(36);
    const scenarios: Scenario[] = [
      ...reads('gateway', viaGateway, true),
      {
        name: 'gateway create',
        url: viaGateway.url,
        method: 'POST',
        headers: { authorization: viaGateway.auth, 'content-type': 'application/json' },
        paths: ['/portal/domains'],
        observe: () =>
          cpuPerOperation(platform, {
            count: () => countCreated(databaseUrl, `new%-${runId}.bench.example.com`),
            settled: () => waitForProjections(databaseUrl, `new%-${runId}.bench.example.com`),
          }),
        body: (n) =>
          JSON.stringify({
            domain: `new${n}-${runId}.bench.example.com`,
            company_name: `Bench Co ${n}`,
            account_email: `o${n}@bench.example.com`,
            company_setup: true,
          }),
        target: { rps: 500 },
      },
      {
        // The same create with an Idempotency-Key: claimed, and its answer committed with the write.
        name: 'gateway create with Idempotency-Key',
        url: viaGateway.url,
        method: 'POST',
        headers: { authorization: viaGateway.auth, 'content-type': 'application/json' },
        paths: ['/portal/domains'],
        body: (n) =>
          JSON.stringify({
            domain: `keyed${n}-${runId}.bench.example.com`,
            company_name: `Bench Co ${n}`,
            account_email: `o${n}@bench.example.com`,
            company_setup: true,
          }),
        idempotencyKeyPrefix: `bench-${runId}`,
      },
      {
        // A widget setting changed to a value never used before, so every call writes (and announces
        // property.updated); spread over 1,000 domains.
        name: 'gateway update',
        url: viaGateway.url,
        method: 'PUT',
        headers: { authorization: viaGateway.auth, 'content-type': 'application/json' },
        paths: ids.map((id) => `/portal/domains/${id}`),
        body: (n) => JSON.stringify({ primary_color: `#${(n % 0xffffff).toString(16).padStart(6, '0')}` }),
      },
      {
        // Active domains are 5/6 of the seed: page 5,000 of 10 reads rows 49,991-50,000 of ~83,000.
        // Each answer scans 50,000 index entries (~10 ms of one core): measured as latency at the
        // concurrency a partner walking deep pages brings (4 connections), not as throughput.
        name: 'gateway list page 5000 (100k domains, 4 conn.)',
        connections: 4,
        url: viaGateway.url,
        headers: { authorization: `Bearer ${deepKey}` },
        paths: ['/portal/domains?limit=10&page=5000'],
        target: { p99Ms: 50 },
      },
      {
        // 100 domains per call, through domains-svc to billing-svc and back into the projection;
        // each call takes the next window of 100 ids and switches its product, so every entry changes.
        // One partner's calls one after another: each also sends 100 subscription.changed events
        // through RabbitMQ to domains-svc, which share the two cores with the calls.
        name: 'gateway bulk product change, 100 domains (1 conn.)',
        connections: 1,
        url: viaGateway.url,
        method: 'POST',
        headers: { authorization: viaGateway.auth, 'content-type': 'application/json' },
        paths: ['/portal/domains/bulk/subscription/product'],
        body: (n) => {
          const window = n % Math.floor(ids.length / 100);
          const product = Math.floor(n / Math.floor(ids.length / 100)) % 2 ? 'PRO' : 'ENTERPRISE';
          return JSON.stringify({
            domains: ids.slice(window * 100, window * 100 + 100).map((id) => ({ id, product, price_list: 'STANDARD' })),
          });
        },
        target: { p99Ms: 300 },
      },
      {
        // Filters over billing and merchant data, answered from domains-svc's projections; latency
        // at the concurrency one partner's integration brings (4 connections), like deep pages.
        name: 'gateway list subscription_status + merchant_id (100k domains, 4 conn.)',
        connections: 4,
        url: viaGateway.url,
        headers: { authorization: `Bearer ${deepKey}` },
        paths: Array.from(
          { length: 50 },
          (_, i) => `/portal/domains?limit=10&subscription_status=ACTIVE&merchant_id=merchant-${i * 37}`,
        ),
        target: { p99Ms: 30 },
      },
      // The portal's property screen reads it per domain: the same load as `gateway get by id`.
      instancePropertyScenario(viaGateway.url, me.key, ids),
      ...reads('direct', direct, false),
      ...nginxScenario(
        nginx,
        reads('direct', direct, false).find((s) => s.name === 'direct get by id'),
      ),
      ...(await widgetScenarios(databaseUrl, me.id, platform.urls.gateway, platform.adminUrls['domains-svc'])),
      ...(!ONLY || ONLY.test('portal domains screen')
        ? await portalScenarios(platform.urls.gateway, deepKey, () =>
            platform.admin(
              'user',
              'invite',
              '--partner',
              deepPartner.id,
              '--email',
              'bench@deep.example.com',
              '--role',
              'ADMINISTRATOR',
            ),
          )
        : []),
      ...consent.scenarios,
      ...figures.scenarios,
      { name: 'ceiling node:http', url: ceiling.url, headers: {}, paths: ['/'] },
    ];
    if (consent.scenarios.some((x) => !ONLY || ONLY.test(x.name))) await consent.seed(databaseUrl, me.id);
    if (figures.scenarios.some((x) => !ONLY || ONLY.test(x.name))) await figures.seed(databaseUrl, me.id);

    const results: Result[] = [];
    for (const s of scenarios.filter((x) => !ONLY || ONLY.test(x.name))) {
      const report = s.observe ? await s.observe() : undefined;
      const r = await runScenario(s, DURATION_SEC);
      console.log(
        `  ${r.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx ? `, non-2xx ${r.non2xx} (first: ${r.firstFailure})` : ''}`,
      );
      if (report) console.log(`    ${await report()}`);
      results.push(r);
    }
    if (!ONLY || ONLY.test('scale-out')) {
      const getById = scenarios.find((s) => s.name === 'gateway get by id')!;
      results.push(...(await runScaleRows(platform, getById, DURATION_SEC)));
    }
    const byName = new Map(results.map((r) => [r.name, r]));
    const ceilingRps = byName.get('ceiling node:http')?.rps ?? NaN;
    console.log(
      `\n${TOTAL_DOMAINS} domains, ${PARTNERS} partners, ${CONNECTIONS} connections, ${DURATION_SEC} s per scenario\n`,
    );
    console.log(table(results));
    console.log('\n| read | gateway/direct | gateway/ceiling |\n|---|---|---|');
    for (const r of ['list limit=10', 'list 2 filters', 'list filtered page 50', 'get by id']) {
      const g = byName.get(`gateway ${r}`)?.rps;
      const d = byName.get(`direct ${r}`)?.rps;
      if (g === undefined || d === undefined) continue;
      console.log(
        `| ${r} | ${((100 * g) / d).toFixed(0)}% ${g / d >= 0.6 ? 'PASS (>= 60%)' : 'FAIL (>= 60%)'} | ${((100 * g) / ceilingRps).toFixed(0)}% |`,
      );
    }
    console.log('');
    printPortalScreen(byName);
    printInstanceProperty(byName);
    printAnchor(byName);
    printScale(byName);
    if (!ONLY || ONLY.test('noisy neighbour')) {
      const b = partners[1];
      await runNoisyNeighbour(platform, { a: { key: me.key, ids }, b });
      await runNoisyNeighbour(platform, { a: { key: me.key, ids }, b }, 100_000_000);
    }
    if (byName.has('gateway create')) {
      // At the create scenario's saturation (32 connections): the lag is mostly the queue in front of the cores.
      await printProjectionLag(databaseUrl, `%-${runId}.bench.example.com`, 'under the saturating create load');
    }
    if (!ONLY || ONLY.test('contended bulk change')) {
      const secondKey = (await platform.admin<{ key: string }>('key', 'create', '--partner', me.id)).key;
      const row = await runContentionBench({
        url: platform.urls.gateway,
        keys: [me.key, secondKey],
        ids: ids.slice(0, 100),
        durationSec: DURATION_SEC,
      });
      console.log(`\n${contentionTable(row)}`);
    }
    let webhookRows: WebhookBenchRow[] = [];
    if (!ONLY || ONLY.test('webhooks')) {
      console.log('\nwebhooks...');
      webhookRows = await runWebhookBench(
        platform,
        path.resolve(__dirname, '..', '..'),
        `${dbName}.events`,
        amqpUrl,
        databaseUrl,
      );
      console.log('\n| webhooks | measured | target |\n|---|---|---|');
      for (const r of webhookRows)
        console.log(
          `| ${r.name} | ${r.value} | ${r.target}${r.pass === undefined ? '' : r.pass ? ' PASS' : ' FAIL'} |`,
        );
      // One webhook latency run creates domains at a steady rate: the same lag at that load.
      await printProjectionLag(
        databaseUrl,
        'wh%.bench.example.com',
        `at the webhook run's steady ${process.env.BENCH_WEBHOOK_CREATE_RATE ?? 100} creates/s`,
      );
    }
    if (!ONLY || ONLY.test(IMPORT_ROW_NAME)) {
      console.log('\nimports...');
      // Another partner than the read rows': its 10,000 new domains leave their sample as it was.
      const importRows = await runImportBench(platform.urls.gateway, partners[2].key);
      console.log('\n| imports | measured |\n|---|---|');
      for (const r of importRows) console.log(`| ${r.name} | ${r.value} |`);
    }
    if (!ONLY || ONLY.test('records export')) {
      console.log('\nrecords export...');
      const urls = {
        gateway: platform.urls.gateway,
        gatewayAdmin: platform.adminUrls.gateway,
        consentAdmin: platform.adminUrls['consent-svc'],
      };
      console.log(`\n${exportTable(await runExportBench(urls, databaseUrl, partners[3]))}`);
    }
    if (!ONLY || ONLY.test('widget size')) printWidgetSizes(path.resolve(__dirname, '..', '..'));
    if (!ONLY || ONLY.test('portal first load')) printPortalFirstLoad(path.resolve(__dirname, '..', '..'));
    if (!ONLY || ONLY.test('reminders')) {
      console.log('\nactivation reminders...');
      const reminderRows = await runReminderBench(platform, databaseUrl);
      console.log('\n| activation reminders | measured |\n|---|---|');
      for (const r of reminderRows) console.log(`| ${r.name} | ${r.value} |`);
    }
    if (!ONLY || ONLY.test('scans')) {
      console.log('\nscanner...');
      console.log(`\n${scanTable(await runScanBench(platform, databaseUrl))}`);
    }
    // A revalidation's 304 is its success (autocannon counts it as non-2xx).
    const failures = results.filter((r) => (r.non2xx > 0 && !r.name.endsWith('(304)')) || r.errors > 0);
    if (failures.length) console.log(`\nWARNING: non-2xx or errors in: ${failures.map((r) => r.name).join(', ')}`);
  } finally {
    ceiling.stop();
    nginx?.stop();
    await platform.stop();
    // Quorum queues left behind cost RabbitMQ (and every later run) CPU and memory.
    await deleteEventTopology(amqpUrl, `${dbName}.events`, platform.queues()).catch((err: Error) =>
      console.error(`bench: ${err.message}`),
    );
    if (!process.env.BENCH_KEEP_DB) await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

/**
 * Cross-service projection lag: a domain's commit (its created_at) to billing-svc opening its
 * subscription from domain.created (outbox -> RabbitMQ -> consumer), for the domains whose
 * hostname matches; waits up to 30 s for the last ones.
 */
async function printProjectionLag(databaseUrl: string, hostnames: string, label: string) {
  const lag = await withDb(databaseUrl, async (c) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const { rows } = await c.query<{ ms: number | null; pending: number }>(
        `SELECT (extract(epoch FROM s.created_at - d.created_at) * 1000)::float8 AS ms, 0 AS pending
           FROM domains.domains d JOIN billing.subscriptions s ON s.id = d.subscription_id
          WHERE d.hostname LIKE $1
         UNION ALL
         SELECT NULL, count(*)::int FROM domains.domains d
          WHERE d.hostname LIKE $1 AND NOT EXISTS (SELECT 1 FROM billing.subscriptions s WHERE s.id = d.subscription_id)`,
        [hostnames],
      );
      const pending = rows.find((r) => r.ms === null)?.pending ?? 0;
      if (pending === 0 || Date.now() > until)
        return rows.flatMap((r) => (r.ms === null ? [] : [r.ms])).sort((a, b) => a - b);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  const at = (p: number) => Math.round(lag[Math.min(lag.length - 1, Math.ceil((p / 100) * lag.length) - 1)] ?? NaN);
  console.log(
    `\n| projection lag (domain commit -> billing subscription), ${label} | p50 ${at(50)} ms | p99 ${at(99)} ms ${at(99) < 1000 ? 'PASS' : 'FAIL'} (< 1000) | ${lag.length} domains |`,
  );
}

const countCreated = (databaseUrl: string, hostnames: string) =>
  withDb(databaseUrl, async (c) =>
    Number((await c.query(`SELECT count(*) AS n FROM domains.domains WHERE hostname LIKE $1`, [hostnames])).rows[0].n),
  );

/** Waits (up to 60 s) until billing's and consent's projections have every matching domain. */
async function waitForProjections(databaseUrl: string, hostnames: string) {
  await withDb(databaseUrl, async (c) => {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const { rows } = await c.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM domains.domains d
          WHERE d.hostname LIKE $1
            AND (NOT EXISTS (SELECT 1 FROM billing.subscriptions s WHERE s.id = d.subscription_id)
              OR NOT EXISTS (SELECT 1 FROM consent.properties p WHERE p.property_id = d.property_id::text))`,
        [hostnames],
      );
      if (rows[0].pending === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

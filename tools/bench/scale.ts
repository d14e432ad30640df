import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, type ExtraInstance, type Platform } from '@platform/launcher';
import { runScenario, type Result, type Scenario } from './load';

const HAPROXY = process.env.BENCH_HAPROXY ?? '/usr/sbin/haproxy';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });

function installed(binary: string, flag: string) {
  try {
    execFileSync(binary, [flag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * HAProxy (Debian's package) as the load balancer in front of gateways: round robin, keep-alive on
 * both sides, health checks on each gateway's /health/live, one thread (the machine has two cores).
 */
export async function startHaproxy(backends: string[]): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-haproxy-'));
  const servers = backends.map((b, i) => `  server g${i} ${new URL(b).host} check inter 1s`).join('\n');
  writeFileSync(
    path.join(dir, 'haproxy.cfg'),
    `global
  maxconn 8192
  nbthread 1
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  option http-keep-alive
  http-reuse always
frontend gateways
  bind 127.0.0.1:${port}
  default_backend gateways
backend gateways
  balance roundrobin
  option httpchk GET /health/live
${servers}
`,
  );
  const child = spawn(HAPROXY, ['-db', '-f', path.join(dir, 'haproxy.cfg')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`haproxy did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => (child.kill(), rmSync(dir, { recursive: true, force: true })) };
}

/**
 * The scale-out rows, in one run beside `gateway get by id` (one gateway, limits in memory): the
 * same row with the limits in Redis (what the shared limiter adds per call), then through HAProxy
 * to that one gateway and to three (each with Redis limits). Restores the bench's gateway after.
 */
export async function runScaleRows(platform: Platform, getById: Scenario, durationSec: number): Promise<Result[]> {
  if (!installed(HAPROXY, '-v')) {
    console.log(`scale rows skipped: ${HAPROXY} not found (apt-get install -y haproxy, or set BENCH_HAPROXY)`);
    return [];
  }
  const results: Result[] = [];
  const run = async (name: string, url: string) => {
    const r = await runScenario({ ...getById, name, url }, durationSec);
    console.log(
      `  ${r.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx ? `, non-2xx ${r.non2xx}` : ''}`,
    );
    results.push(r);
  };
  const extras: ExtraInstance[] = [];
  try {
    await platform.start('gateway', { REDIS_URL });
    await run('gateway get by id, limits in Redis', platform.urls.gateway);
    const one = await startHaproxy([platform.urls.gateway]);
    try {
      await run('haproxy -> 1 gateway get by id', one.url);
    } finally {
      one.stop();
    }
    for (let i = 0; i < 2; i++) extras.push(await platform.startInstance('gateway', { REDIS_URL }));
    const three = await startHaproxy([platform.urls.gateway, ...extras.map((e) => e.url)]);
    try {
      await run('haproxy -> 3 gateways get by id', three.url);
    } finally {
      three.stop();
    }
  } finally {
    await Promise.all(extras.map((e) => e.process.stop()));
    await platform.start('gateway');
  }
  return results;
}

/** The scale rows against the one gateway with its limits in memory, same run. */
export function printScale(byName: Map<string, Result>) {
  const base = byName.get('gateway get by id');
  const rows = [
    'gateway get by id, limits in Redis',
    'haproxy -> 1 gateway get by id',
    'haproxy -> 3 gateways get by id',
  ];
  if (!base || !rows.some((r) => byName.has(r))) return;
  console.log('\n| scale-out (get by id, 32 connections) | req/s | p99 ms | against one gateway, limits in memory |');
  console.log('|---|---|---|---|');
  console.log(`| one gateway, limits in memory | ${base.rps} | ${base.p99} | |`);
  for (const name of rows) {
    const r = byName.get(name);
    if (r)
      console.log(
        `| ${name} | ${r.rps} | ${r.p99} | ${((100 * r.rps) / base.rps).toFixed(0)}%, p99 ${r.p99 - base.p99 >= 0 ? '+' : ''}${r.p99 - base.p99} ms |`,
      );
  }
}

// Two rows of `npm run bench` about sharing: the proxy-hop anchor (the same get-by-id through
// nginx, Debian's package, proxying straight to domains-svc) and the noisy neighbour (partner A's
// get-by-id p99 alone and while partner B lists ?limit=100 as fast as its real rate limit allows).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Platform } from '@platform/launcher';
import type { Result, Scenario } from './load';

/** FAIR_SHARE_* settings of the bench's shell, passed to its gateway (e.g. to compare caps). */
export const fairShareEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('FAIR_SHARE_')));

const NGINX = process.env.BENCH_NGINX ?? '/usr/sbin/nginx';

export interface Nginx {
  url: string;
  stop(): void;
}

function nginxInstalled(): boolean {
  try {
    execFileSync(NGINX, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });

/**
 * nginx as a plain reverse proxy in front of domains-svc: workers as Debian's package sets them
 * (auto: one per core), keep-alive to the upstream, no access log. Undefined, with the reason printed, when nginx
 * is not installed (`apt-get install nginx`).
 */
export async function startNginx(upstreamUrl: string, port: number): Promise<Nginx | undefined> {
  if (!nginxInstalled()) {
    console.log(`nginx anchor row skipped: ${NGINX} not found (apt-get install -y nginx, or set BENCH_NGINX)`);
    return undefined;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-nginx-'));
  const upstream = new URL(upstreamUrl);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join(' ');
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off; worker_processes auto; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off; ${temp}
  upstream domains { server ${upstream.hostname}:${upstream.port}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 1000000;
    location / { proxy_pass http://domains; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const until = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (Date.now() > until || child.exitCode !== null)
      throw new Error(`nginx did not listen on ${port}; see ${dir}/error.log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, stop: () => (child.kill(), rmSync(dir, { recursive: true, force: true })) };
}

/** The get-by-id row through nginx, with the same paths and internal token as the direct row. */
export const nginxScenario = (nginx: Nginx | undefined, direct: Scenario | undefined): Scenario[] =>
  nginx && direct ? [{ ...direct, name: 'nginx get by id', url: nginx.url }] : [];

/** Gateway get-by-id as a share of the nginx row in the same run (target: at least 80%). */
export function printAnchor(byName: Map<string, Result>) {
  const g = byName.get('gateway get by id');
  const n = byName.get('nginx get by id');
  const d = byName.get('direct get by id');
  if (!g || !n) return;
  const share = g.rps / n.rps;
  console.log('\n| proxy hop anchor | req/s | p99 ms | gateway as % of it |\n|---|---|---|---|');
  if (d) console.log(`| direct get by id | ${d.rps} | ${d.p99} | ${((100 * g.rps) / d.rps).toFixed(0)}% |`);
  console.log(
    `| nginx get by id | ${n.rps} | ${n.p99} | ${(100 * share).toFixed(0)}% ${share >= 0.8 ? 'PASS' : 'FAIL'} (>= 80%) |`,
  );
}

export interface FairnessParties {
  /** The reader: a partner's key and some of its domain ids. */
  a: { key: string; ids: string[] };
  /** The flooder: another partner's key (its own domains). */
  b: { key: string };
}

/** A's steady get-by-id load, at a fixed rate (latency corrected for coordinated omission). */
async function readerP99(url: string, a: FairnessParties['a'], rate: number, durationSec: number) {
  let n = 0;
  const r = await autocannon({
    url,
    connections: 8,
    overallRate: rate,
    duration: durationSec,
    headers: { authorization: `Bearer ${a.key}` },
    requests: [
      { setupRequest: (req: autocannon.Request) => ({ ...req, path: `/portal/domains/${a.ids[n++ % a.ids.length]}` }) },
    ],
  });
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: Math.round(r.requests.average),
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

interface FloodStats {
  ok: number;
  limited: number;
  other: number;
}

/** B's flood in its own process (its answers must not slow the process that times A), 32 connections. */
function startFlood(url: string, key: string, durationSec: number): Promise<FloodStats> {
  const cli = require.resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '-j',
    '-c',
    '32',
    '-d',
    String(durationSec),
    '-H',
    `authorization=Bearer ${key}`,
    `${url}/portal/domains?limit=100`,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', () => {
      try {
        const r = JSON.parse(out) as {
          '2xx': number;
          '4xx': number;
          '5xx': number;
          non2xx: number;
          statusCodeStats?: Record<string, { count: number }>;
        };
        const limited = r.statusCodeStats?.['429']?.count ?? 0;
        resolve({ ok: r['2xx'], limited, other: r.non2xx - limited });
      } catch (err) {
        reject(err as Error);
      }
    }),
  );
}

/**
 * The noisy-neighbour row. The bench platform runs with a huge RATE_LIMIT_PER_MINUTE (so the
 * throughput rows measure the system, not the limiter); this row restarts the gateway with the
 * production defaults (the default rate limit, the default fair-share settings), so B floods at the rate a
 * real key gets, then restores the bench gateway. Both phases run in the same run, on the same gateway.
 */
export async function runNoisyNeighbour(
  platform: Platform,
  parties: FairnessParties,
  /** The per-key limit both keys get: the default (6,000), or one too high to stop B (only the fair share holds it). */
  rateLimitPerMinute = 6000,
  durationSec = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 20),
) {
  // Half of A's own default limit (6,000 a minute): A stays within it, only B floods.
  const rate = Number(process.env.BENCH_FAIRNESS_RATE ?? 50);
  // 6,000 a minute: RATE_LIMIT_PER_MINUTE's default (docs/configuration.md).
  // The fair share's default (8 in flight per partner and service), unless the shell names one.
  await platform.start('gateway', {
    RATE_LIMIT_PER_MINUTE: String(rateLimitPerMinute),
    FAIR_SHARE_MAX_IN_FLIGHT: process.env.FAIR_SHARE_MAX_IN_FLIGHT ?? '8',
  });
  try {
    const url = platform.urls.gateway;
    await readerP99(url, parties.a, rate, 2); // warm-up
    const quiet = await readerP99(url, parties.a, rate, durationSec);
    const flood = startFlood(url, parties.b.key, durationSec + 1);
    const loud = await readerP99(url, parties.a, rate, durationSec);
    const b = await flood;
    const ratio = loud.p99 / Math.max(quiet.p99, 1);
    const limits =
      rateLimitPerMinute === 6000
        ? 'default limits'
        : `rate limit ${rateLimitPerMinute}/min: only the fair share holds B`;
    console.log(
      `\n| noisy neighbour (A get by id at ${rate}/s, B ?limit=100 at 32 conn., ${limits}) | A p50 ms | A p99 ms | A non-2xx | B answers |`,
    );
    console.log('|---|---|---|---|---|');
    console.log(`| A alone | ${quiet.p50} | ${quiet.p99} | ${quiet.non2xx + quiet.errors} | |`);
    console.log(
      `| A while B floods | ${loud.p50} | ${loud.p99} (${ratio.toFixed(1)}x) ${ratio <= 3 ? 'PASS' : 'FAIL'} (<= 3x) | ${loud.non2xx + loud.errors} | ${b.ok} 2xx, ${b.limited} 429, ${b.other} other |`,
    );
  } finally {
    await platform.start('gateway');
  }
}

// The scanner section of `npm run bench`: scans per minute of one worker (one domains-svc process,
// SCANNER_CONCURRENCY 2) against a local ten-page site, in http and in browser mode. Every site
// name is mapped to the bench's server on 127.0.0.1 with SCANNER_CONNECT_TO (https to a closed
// port: the scanner falls back to http), so nothing leaves the machine.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { request } from 'undici';
import type { Platform } from '@platform/launcher';

export interface ScanBenchRow {
  mode: 'http' | 'browser';
  scans: number;
  seconds: number;
  perMinute: number;
  pagesPerScan: number;
  failed: number;
}

const SITE_ROOT = 'scanbench.example.com';
const PAGES = 10;

/** Ten pages, each linking to every other, each with an analytics script and a cookie; the script host is served here too. */
function startSite(): Promise<http.Server> {
  const page = (n: number) =>
    `<!doctype html><html><head><title>Page ${n}</title><script src="http://www.google-analytics.com/analytics.js"></script><script src="/app.js"></script></head>` +
    `<body><h1>Page ${n}</h1>${Array.from({ length: PAGES }, (_, i) => `<a href="/${i === 0 ? '' : `p${i}`}">page ${i}</a>`).join(' ')}<p>${'Lorem ipsum dolor sit amet. '.repeat(200)}</p></body></html>`;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.headers.host?.startsWith('www.google-analytics.com'))
      return res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.ga = function () {};');
    if (url === '/app.js')
      return res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end('document.cookie = "_ga=GA1.1.1.1; path=/; max-age=86400";');
    const n = url === '/' ? 0 : Number(/^\/p(\d)$/.exec(url)?.[1] ?? NaN);
    if (!(n >= 0 && n < PAGES)) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'session_id=abc; Path=/' })
      .end(page(n));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function call(gateway: string, key: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request(`${gateway}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300)
    throw new Error(`bench: ${method} ${url} answered ${res.statusCode}: ${text}`);
  return JSON.parse(text) as { result: { id: string } };
}

/** Queues `count` scans at once and measures until the last one ended, with domains-svc restarted in the given mode. */
async function runMode(
  platform: Platform,
  databaseUrl: string,
  key: string,
  mode: 'http' | 'browser',
  count: number,
  connectTo: string,
): Promise<ScanBenchRow> {
  await platform.start('domains-svc', {
    SCANNER_MODE: mode,
    SCANNER_ALLOW_LOOPBACK: 'true',
    SCANNER_CONNECT_TO: connectTo,
    SCANNER_CONCURRENCY: '2',
    SCANNER_MAX_PAGES: String(PAGES),
    SCANNER_POLL_MS: '100',
    SCAN_MIN_INTERVAL_MS: '0',
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const host = `${mode}${i}-${Date.now().toString(36)}.${SITE_ROOT}`;
    ids.push(
      (
        await call(platform.urls.gateway, key, 'POST', '/portal/domains', {
          domain: host,
          company_name: `Scan bench ${host}`,
          account_email: `o@${host}`,
          company_setup: true,
        })
      ).result.id,
    );
  }
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const started = Date.now();
    for (const id of ids) await call(platform.urls.gateway, key, 'POST', `/portal/domains/${id}/scan`);
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const { rows } = await c.query<{ open: number }>(
        `SELECT count(*)::int AS open FROM domains.scans WHERE domain_id = ANY($1::uuid[]) AND status IN ('queued', 'running')`,
        [ids],
      );
      if (rows[0].open === 0) break;
      if (Date.now() > deadline) throw new Error(`bench: ${rows[0].open} ${mode} scans still open after 15 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    const { rows } = await c.query<{ pages: number; failed: number }>(
      `SELECT avg(jsonb_array_length(pages))::float8 AS pages, count(*) FILTER (WHERE status = 'failed')::int AS failed FROM domains.scans WHERE domain_id = ANY($1::uuid[])`,
      [ids],
    );
    return {
      mode,
      scans: count,
      seconds: Math.round(seconds * 10) / 10,
      perMinute: Math.round((count / seconds) * 60 * 10) / 10,
      pagesPerScan: rows[0].pages,
      failed: rows[0].failed,
    };
  } finally {
    await c.end();
  }
}

/** Both modes, then domains-svc is started again with the platform's own settings. */
export async function runScanBench(platform: Platform, databaseUrl: string): Promise<ScanBenchRow[]> {
  const site = await startSite();
  const port = (site.address() as AddressInfo).port;
  const connectTo = [
    `*:443:127.0.0.1:9`,
    `*.${SITE_ROOT}:80:127.0.0.1:${port}`,
    `www.google-analytics.com:80:127.0.0.1:${port}`,
  ].join(',');
  const p = await platform.admin<{ id: string }>('partner', 'create', '--name', 'Bench scan partner');
  const key = (await platform.admin<{ key: string }>('key', 'create', '--partner', p.id)).key;
  try {
    return [
      await runMode(platform, databaseUrl, key, 'http', Number(process.env.BENCH_SCANS_HTTP ?? 40), connectTo),
      await runMode(platform, databaseUrl, key, 'browser', Number(process.env.BENCH_SCANS_BROWSER ?? 12), connectTo),
    ];
  } finally {
    await platform.start('domains-svc');
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  }
}

export function scanTable(rows: ScanBenchRow[]): string {
  const lines = [
    '| scanner (1 worker, 2 scans at once, ten-page local site) | scans | seconds | scans/min | pages/scan | failed |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(`| ${r.mode} mode | ${r.scans} | ${r.seconds} | ${r.perMinute} | ${r.pagesPerScan} | ${r.failed} |`);
  return lines.join('\n');
}

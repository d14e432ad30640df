import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  /** Paths (with query) rotated across requests, e.g. many domain ids. */
  paths: string[];
  /** For POST and PUT: a fresh body per request (unique hostnames, new settings). */
  body?: (n: number) => string;
  target?: { rps?: number; p99Ms?: number };
  /** Concurrent connections (default CONNECTIONS). */
  connections?: number;
  /** A fresh Idempotency-Key per request with this prefix (keyed writes). */
  idempotencyKeyPrefix?: string;
  /** Headers of request n on top of `headers` (e.g. each property's Origin, a visitor's X-Forwarded-For). */
  headersFor?: (n: number) => Record<string, string>;
  /** Runs just before the scenario (warm-up included); its answer runs after it and says what to print. */
  observe?: () => Promise<() => Promise<string>>;
}

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  target?: Scenario['target'];
  /** Status and start of the body of the first non-2xx answer, if any. */
  firstFailure?: string;
}

export const CONNECTIONS = 32;

/** Runs one scenario with autocannon (32 connections unless the scenario says) after a short warm-up. */
export async function runScenario(s: Scenario, durationSec: number, warmupSec = 2): Promise<Result> {
  let n = 0;
  let firstFailure: string | undefined;
  const requests = [
    {
      method: s.method ?? 'GET',
      // The first non-2xx answer is kept, so a failing scenario says why.
      onResponse: (status: number, body: string) => {
        if ((status < 200 || status >= 300) && firstFailure === undefined)
          firstFailure = `${status} ${String(body).slice(0, 300)}`;
      },
      setupRequest: (req: autocannon.Request) => {
        n += 1;
        const extra = {
          ...(s.headersFor ? s.headersFor(n) : {}),
          ...(s.idempotencyKeyPrefix === undefined ? {} : { 'idempotency-key': `${s.idempotencyKeyPrefix}-${n}` }),
        };
        const headers = Object.keys(extra).length > 0 ? { headers: { ...req.headers, ...extra } } : {};
        return { ...req, path: s.paths[n % s.paths.length], ...(s.body ? { body: s.body(n) } : {}), ...headers };
      },
    },
  ];
  const options: autocannon.Options = {
    url: s.url,
    connections: s.connections ?? CONNECTIONS,
    headers: s.headers,
    requests,
  };
  if (warmupSec > 0) await autocannon({ ...options, duration: warmupSec });
  const r = await autocannon({ ...options, duration: durationSec });
  return {
    name: s.name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    target: s.target,
    firstFailure,
  };
}

export function verdict(r: Result): string {
  if (!r.target) return '';
  const ok =
    (r.target.rps === undefined || r.rps >= r.target.rps) && (r.target.p99Ms === undefined || r.p99 < r.target.p99Ms);
  const parts = [
    r.target.rps ? `>= ${r.target.rps} req/s` : '',
    r.target.p99Ms ? `p99 < ${r.target.p99Ms} ms` : '',
  ].filter(Boolean);
  return `${ok ? 'PASS' : 'FAIL'} (${parts.join(', ')})`;
}

export function table(results: Result[]): string {
  const rows = [
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'target'],
    ...results.map((r) => [
      r.name,
      String(r.rps),
      String(r.p50),
      String(r.p99),
      String(r.non2xx),
      String(r.errors),
      verdict(r),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

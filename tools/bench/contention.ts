import autocannon from 'autocannon';

/** Connections per key: 8+8 overlapping batches is the load that deadlocked billing (issue 16). */
const CONNECTIONS_PER_KEY = 8;

export interface ContentionRow {
  name: string;
  /** Bulk calls answered per second, both keys together. */
  callsPerSec: number;
  /** Subscriptions whose product changed, per second ({changed: true} entries of the 200 answers). */
  changesPerSec: number;
  p99: number;
  /** 5xx answers: the target is none (a 503 would be a busy service, a 500 a bug). */
  fiveXx: number;
  /** Other non-2xx answers and errors (time-outs, resets). */
  otherFailures: number;
  firstFailure?: string;
}

interface Tally {
  changed: number;
  fiveXx: number;
  other: number;
  firstFailure?: string;
}

/** One key's connections, switching every domain of the batch to `product` over and over. */
function runKey(
  url: string,
  key: string,
  entries: { id: string; product: string }[],
  durationSec: number,
  tally: Tally,
) {
  const body = JSON.stringify({ domains: entries.map((e) => ({ ...e, price_list: 'STANDARD' })) });
  return autocannon({
    url,
    connections: CONNECTIONS_PER_KEY,
    duration: durationSec,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: '/portal/domains/bulk/subscription/product',
        body,
        onResponse: (status: number, text: string) => {
          if (status === 200) {
            const { result } = JSON.parse(text) as { result: { changed: { changed: boolean }[] } };
            tally.changed += result.changed.filter((c) => c.changed).length;
            return;
          }
          if (status >= 500) tally.fiveXx++;
          else tally.other++;
          tally.firstFailure ??= `${status} ${String(text).slice(0, 200)}`;
        },
      },
    ],
  });
}

/**
 * Two keys of one partner change the products of the same 100 domains to opposite values, the
 * second key's batch in reverse order (the shape that deadlocks rows locked in the order given),
 * 8 connections each, through the gateway, domains-svc and billing-svc.
 */
export async function runContentionBench(options: {
  url: string;
  keys: [string, string];
  ids: string[];
  durationSec: number;
}): Promise<ContentionRow> {
  const { url, keys, ids, durationSec } = options;
  const tally: Tally = { changed: 0, fiveXx: 0, other: 0 };
  const up = ids.map((id) => ({ id, product: 'PRO' }));
  const down = [...ids].reverse().map((id) => ({ id, product: 'ENTERPRISE' }));
  const [a, b] = await Promise.all([
    runKey(url, keys[0], up, durationSec, tally),
    runKey(url, keys[1], down, durationSec, tally),
  ]);
  return {
    name: `contended bulk change, 2 keys x ${CONNECTIONS_PER_KEY} conn., same ${ids.length} domains, opposite products`,
    callsPerSec: Math.round(a.requests.average + b.requests.average),
    changesPerSec: Math.round(tally.changed / durationSec),
    p99: Math.max(a.latency.p99, b.latency.p99),
    fiveXx: tally.fiveXx,
    otherFailures: tally.other + a.errors + a.timeouts + b.errors + b.timeouts,
    firstFailure: tally.firstFailure,
  };
}

export function contentionTable(row: ContentionRow): string {
  return [
    '| contended bulk change | calls/s | changes/s | p99 ms | 5xx | other failures | target |',
    '|---|---|---|---|---|---|---|',
    `| ${row.name} | ${row.callsPerSec} | ${row.changesPerSec} | ${row.p99} | ${row.fiveXx} | ${row.otherFailures} | ${row.fiveXx === 0 ? 'PASS' : 'FAIL'} (no 5xx) |`,
    ...(row.firstFailure ? [`first failure: ${row.firstFailure}`] : []),
  ].join('\n');
}

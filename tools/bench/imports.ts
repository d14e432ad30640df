import { IMPORT_COLUMNS } from '@platform/contracts';
import type { Scenario } from './load';

export const IMPORT_ROW_NAME = 'import of 10,000 rows (rows/s)';
export const INSTANCE_PROPERTY_ROW = 'instance property reads';

export interface ImportBenchRow {
  name: string;
  value: string;
}

/** A template csv of `rows` new domains (unique per run). */
function importCsv(rows: number, runId: string): string {
  const header = IMPORT_COLUMNS.map((c) => c.header).join(',');
  const lines = Array.from({ length: rows }, (_, i) => {
    const host = `imp${i}-${runId}.bench.example.com`;
    const cells: Record<string, string> = {
      domain: host,
      'company name': `Import Shop ${i}`,
      'company legal name': `Import Co ${i}`,
      'e-mail': `owner@${host}`,
      country: 'GB',
    };
    return IMPORT_COLUMNS.map((c) => cells[c.header] ?? '').join(',');
  });
  return `${header}\r\n${lines.join('\r\n')}\r\n`;
}

/**
 * A 10,000-row csv POSTed through the gateway (multipart, as the portal sends it), then its status
 * polled until COMPLETED: the accept's time (parse, plan, store in one transaction), the job's rows
 * per second from the accept to COMPLETED, and the slowest status read while it ran.
 */
export async function runImportBench(gateway: string, key: string, rows = 10_000): Promise<ImportBenchRow[]> {
  const runId = Date.now().toString(36);
  const form = new FormData();
  form.set('asset', new Blob([importCsv(rows, runId)], { type: 'text/csv' }), 'bench.csv');
  const auth = { authorization: `Bearer ${key}` };
  const started = performance.now();
  const res = await fetch(`${gateway}/portal/domains/imports`, { method: 'POST', headers: auth, body: form });
  const acceptMs = performance.now() - started;
  const body = (await res.json()) as { result?: { id: string } };
  if (res.status !== 202 || !body.result) throw new Error(`imports bench: POST answered ${res.status}`);
  let slowestRead = 0;
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const read = performance.now();
    const status = await fetch(`${gateway}/portal/domains/imports/${body.result.id}`, { headers: auth });
    const answer = (await status.json()) as { result: { status: string; counts: { done: number; failed: number } } };
    slowestRead = Math.max(slowestRead, performance.now() - read);
    if (answer.result.status === 'COMPLETED') {
      if (answer.result.counts.done !== rows)
        throw new Error(`imports bench: ${answer.result.counts.done} of ${rows} rows done`);
      break;
    }
    if (Date.now() > deadline) throw new Error(`imports bench: not completed in 15 min (${answer.result.counts.done})`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  imports: ${rows} rows accepted in ${Math.round(acceptMs)} ms, completed in ${seconds.toFixed(1)} s; slowest status read ${Math.round(slowestRead)} ms`,
  );
  return [
    { name: IMPORT_ROW_NAME, value: String(Math.round(rows / seconds)) },
    { name: 'import of 10,000 rows: accept (POST through the gateway, ms)', value: String(Math.round(acceptMs)) },
    {
      name: 'import of 10,000 rows: slowest GET of its status while it ran (ms)',
      value: String(Math.round(slowestRead)),
    },
  ];
}

/** GET /portal/instance/property?domain_id=… through the gateway over many domains, like `gateway get by id`. */
export const instancePropertyScenario = (gateway: string, key: string, ids: string[]): Scenario => ({
  name: INSTANCE_PROPERTY_ROW,
  url: gateway,
  headers: { authorization: `Bearer ${key}` },
  paths: ids.map((id) => `/portal/instance/property?domain_id=${id}`),
});

/** The property read against the domain read in the same run. */
export function printInstanceProperty(byName: Map<string, { rps: number; p99: number }>): void {
  const property = byName.get(INSTANCE_PROPERTY_ROW);
  const domain = byName.get('gateway get by id');
  if (!property || !domain) return;
  console.log(
    `instance property reads ${property.rps} req/s (p99 ${property.p99} ms) against gateway get by id ${domain.rps} req/s (p99 ${domain.p99} ms): ${((100 * property.rps) / domain.rps).toFixed(0)}%`,
  );
}

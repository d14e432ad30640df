// Consent figures: stats reads over a year of daily counters for 10,000 properties (seeded with
// SQL), and the records export's rate through the gateway over 1,000,000 records (seeded with SQL),
// with the gateway's and consent-svc's resident memory sampled while it streams.
import { Client } from 'pg';
import type { Scenario } from './load';

/** Properties with a year of counters each (BENCH_FIGURE_PROPERTIES). */
const PROPERTIES = Number(process.env.BENCH_FIGURE_PROPERTIES ?? 10_000);
const DAYS = 365;
/** Records the export reads (BENCH_EXPORT_RECORDS). */
const EXPORT_RECORDS = Number(process.env.BENCH_EXPORT_RECORDS ?? 1_000_000);
const EXPORT_DOMAIN = 'bench-export-domain';
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const lastYear = () => ({ from: isoDay(Date.now() - (DAYS - 1) * DAY_MS), to: isoDay(Date.now()) });

async function withDb<T>(databaseUrl: string, fn: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

/** PROPERTIES properties of the partner (domains fig-N), each with a counters row for each of the last 365 days. */
async function seedCounters(databaseUrl: string, partnerId: string) {
  const started = Date.now();
  await withDb(databaseUrl, async (db) => {
    await db.query(
      `INSERT INTO consent.properties (property_id, partner_id, domain_id, hostname, status, company_id, company)
       SELECT 'fig-prop-' || g, $1, 'fig-' || g, 'fig-' || g || '.bench.example.com', 'ACTIVE', 'c1', '{}'::jsonb
       FROM generate_series(1, $2::int) g`,
      [partnerId, PROPERTIES],
    );
    // A property at a time in batches of 1,000 (each statement well within any timeout).
    for (let first = 1; first <= PROPERTIES; first += 1_000) {
      await db.query(
        `INSERT INTO consent.consent_counters (property_id, day, partner_id, domain_id, notice_views, accept_all, reject_all,
           custom, gpc_opt_outs, granted_functional, granted_analytics, granted_marketing)
         SELECT 'fig-prop-' || g, current_date - d, $1, 'fig-' || g, 100 + (g + d) % 50, 40 + d % 20, 20 + g % 10, 10, d % 3, 50, 45, 40
         FROM generate_series($2::int, $3::int) g, generate_series(0, ${DAYS - 1}) d`,
        [partnerId, first, Math.min(PROPERTIES, first + 999)],
      );
    }
    // The partner's own rows, as the receipts' statements raise them with the properties'.
    await db.query(
      `INSERT INTO consent.consent_partner_counters (partner_id, day, notice_views, accept_all, reject_all, custom,
         gpc_opt_outs, granted_functional, granted_analytics, granted_marketing)
       SELECT partner_id, day, sum(notice_views), sum(accept_all), sum(reject_all), sum(custom), sum(gpc_opt_outs),
         sum(granted_functional), sum(granted_analytics), sum(granted_marketing)
       FROM consent.consent_counters WHERE partner_id = $1 GROUP BY 1, 2`,
      [partnerId],
    );
    await db.query('VACUUM ANALYZE consent.consent_counters, consent.consent_partner_counters, consent.properties');
  });
  console.log(`seeded ${PROPERTIES} properties x ${DAYS} days of counters in ${Date.now() - started} ms`);
}

/** The stats scenarios: a domain's year (spread over 1,000 domains) and the whole portfolio's year. */
export function figureScenarios(gateway: string, key: string) {
  const { from, to } = lastYear();
  const headers = { authorization: `Bearer ${key}` };
  const scenarios: Scenario[] = [
    {
      name: `gateway figures stats, a domain's year (${PROPERTIES.toLocaleString('en')} properties x ${DAYS} days)`,
      url: gateway,
      headers,
      paths: Array.from(
        { length: 1_000 },
        (_, i) =>
          `/portal/instance/property/stats?domain_id=fig-${1 + ((i * 7919) % PROPERTIES)}&from=${from}&to=${to}`,
      ),
    },
    {
      name: `gateway figures stats, the portfolio's year (${PROPERTIES.toLocaleString('en')} properties)`,
      url: gateway,
      headers,
      paths: [`/portal/stats/consent?from=${from}&to=${to}`],
    },
  ];
  return { scenarios, seed: seedCounters };
}

/** EXPORT_RECORDS records of one domain, one a second apart up to now, a real record's size (about 1 KB). */
async function seedExport(databaseUrl: string, partnerId: string) {
  const started = Date.now();
  await withDb(databaseUrl, async (db) => {
    await db.query(
      `INSERT INTO consent.properties (property_id, partner_id, domain_id, hostname, status, company_id, company)
       VALUES ('bench-export-prop', $1, $2, 'export.bench.example.com', 'ACTIVE', 'c1', '{}'::jsonb)`,
      [partnerId, EXPORT_DOMAIN],
    );
    for (let first = 1; first <= EXPORT_RECORDS; first += 100_000) {
      await db.query(
        `INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
         SELECT 'RCPT_' || md5('x' || g), $1, 'bench-export-prop', $2, 'COOKIE_CONSENT', s,
           jsonb_build_object('receipt_id', 'RCPT_' || md5('x' || g), 'receipt_type', 'COOKIE_CONSENT', 'receipt_status', s,
             'country', 'SE', 'region', 'Stockholm', 'jurisdiction', 'GDPR',
             'meta', jsonb_build_object('widget_version', '1.0.0', 'consent_revision', 'r1', 'gpc', g % 9 = 0),
             'data_collection', jsonb_build_array(jsonb_build_object('name', 'export.bench.example.com',
               'description', 'Cookies and similar technologies on export.bench.example.com', 'fields', '[]'::jsonb,
               'partners', '[]'::jsonb, 'processors', '[]'::jsonb, 'purposes', jsonb_build_array(
                 jsonb_build_object('category', 'necessary', 'name', 'Strictly necessary', 'description', 'Needed for the site to work', 'status', 'GRANTED'),
                 jsonb_build_object('category', 'functional', 'name', 'Functional', 'description', 'Remembers your settings', 'status', 'GRANTED'),
                 jsonb_build_object('category', 'analytics', 'name', 'Analytics', 'description', 'Counts visits', 'status', 'GRANTED'),
                 jsonb_build_object('category', 'marketing', 'name', 'Marketing', 'description', 'Personalised ads', 'status', 'DENIED')))),
             'data_controller', jsonb_build_object('name', 'Bench AB', 'email', 'owner@bench.example.com', 'url', 'https://export.bench.example.com'),
             'subject', md5('s' || g), 'subject_auth', 'ANONYMOUS',
             'subject_data', jsonb_build_object('categories', jsonb_build_object('necessary', true, 'functional', true, 'analytics', true, 'marketing', false)),
             'property_id', 'bench-export-prop', 'created_at', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
           'eyJhbGciOiJFZERTQSIsImtpZCI6ImJlbmNoIn0..' || md5('sig' || g), md5('xn' || g), t
         FROM generate_series($3::int, $4::int) g,
              LATERAL (SELECT (ARRAY['ALLOWED','PARTIAL','DENIED'])[g % 3 + 1] AS s, now() - g * interval '1 second' AS t) x`,
        [partnerId, EXPORT_DOMAIN, first, Math.min(EXPORT_RECORDS, first + 99_999)],
      );
    }
    await db.query('VACUUM ANALYZE consent.records');
  });
  console.log(`seeded ${EXPORT_RECORDS} records to export in ${Date.now() - started} ms`);
}

/** A process's resident memory from its admin /metrics (prom-client's default metrics). */
async function rssOf(adminUrl: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  // e.g. process_resident_memory_bytes{service="consent-svc"} 123456789 (the registry's default label)
  return Number(/^process_resident_memory_bytes(?:\{[^}]*\})? (\S+)/m.exec(text)?.[1] ?? NaN);
}

export interface ExportRow {
  format: string;
  records: number;
  seconds: number;
  perSecond: number;
  mb: number;
  /** Resident memory before the export -> its peak while it ran (MB). */
  gatewayRssMb: string;
  consentRssMb: string;
}

/** One export through the gateway, read as it comes (lines counted), the two processes' RSS sampled every 250 ms. */
async function exportOnce(
  urls: { gateway: string; gatewayAdmin: string; consentAdmin: string },
  key: string,
  format: 'ndjson' | 'csv',
): Promise<ExportRow> {
  const { from, to } = { from: isoDay(Date.now() - 30 * DAY_MS), to: isoDay(Date.now()) };
  // Before: each process's resident memory at rest, to read the peak against.
  const before = { gateway: await rssOf(urls.gatewayAdmin), consent: await rssOf(urls.consentAdmin) };
  const peak = { ...before };
  const sampler = setInterval(() => {
    void rssOf(urls.gatewayAdmin).then((v) => (peak.gateway = Math.max(peak.gateway, v)));
    void rssOf(urls.consentAdmin).then((v) => (peak.consent = Math.max(peak.consent, v)));
  }, 250);
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  try {
    const res = await fetch(
      `${urls.gateway}/portal/instance/company/records/export?domain_id=${EXPORT_DOMAIN}&from=${from}&to=${to}&format=${format}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    for await (const piece of res.body as AsyncIterable<Uint8Array>) {
      bytes += piece.length;
      for (const b of piece) if (b === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const records = format === 'csv' ? lines - 1 : lines;
  const mb = (n: number) => Math.round(n / 1024 / 1024);
  return {
    format,
    records,
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round(records / seconds),
    mb: mb(bytes),
    gatewayRssMb: `${mb(before.gateway)} -> ${mb(peak.gateway)}`,
    consentRssMb: `${mb(before.consent)} -> ${mb(peak.consent)}`,
  };
}

/** The export bench: seeds, then exports as NDJSON and as CSV. */
export async function runExportBench(
  urls: { gateway: string; gatewayAdmin: string; consentAdmin: string },
  databaseUrl: string,
  partner: { id: string; key: string },
): Promise<ExportRow[]> {
  await seedExport(databaseUrl, partner.id);
  const rows: ExportRow[] = [];
  for (const format of ['ndjson', 'csv'] as const) {
    const row = await exportOnce(urls, partner.key, format);
    console.log(`  export ${format}: ${row.records} records in ${row.seconds} s (${row.perSecond}/s)`);
    rows.push(row);
  }
  return rows;
}

export const exportTable = (rows: ExportRow[]) =>
  [
    '| export (through the gateway) | records | seconds | records/s | MB sent | gateway RSS before -> peak | consent-svc RSS before -> peak |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.format} | ${r.records} | ${r.seconds} | ${r.perSecond} | ${r.mb} | ${r.gatewayRssMb} MB | ${r.consentRssMb} MB |`,
    ),
  ].join('\n');

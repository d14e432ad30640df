import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { categoryPurpose } from '@platform/contracts';
import type { Scenario } from './load';

/** Stored consent records the records-list scenarios read through (BENCH_RECORDS). */
const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const HOSTNAME = 'records.bench.example.com';
const DOMAINS = ['bench-records-a', 'bench-records-b'];
/** Property ids are uuids (the public routes' Origin rule looks them up only then). */
const PROPERTIES = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
const PROPERTY = PROPERTIES[0];

/** One stored record's body as the API shows it (a real record's size and shape), without its id and time. */
const TEMPLATE = {
  receipt_type: 'COOKIE_CONSENT',
  country: 'SE',
  region: 'Stockholm',
  jurisdiction: 'GDPR',
  meta: { widget_version: '1.0.0', consent_revision: 'r1', gpc: false },
  data_collection: [
    {
      name: HOSTNAME,
      description: `Cookies and similar technologies on ${HOSTNAME}`,
      fields: [],
      partners: [],
      processors: [],
      purposes: (['necessary', 'functional', 'analytics', 'marketing'] as const).map((c) =>
        categoryPurpose(c, 'GRANTED'),
      ),
    },
  ],
  data_controller: {
    name: 'Bench AB',
    logo: null,
    phone_number: null,
    url: `https://${HOSTNAME}`,
    email: 'owner@bench.example.com',
    address: {
      id: 'c1',
      country: 'SE',
      state: null,
      address: 'Gatan 1',
      address_2: null,
      postal_code: '11122',
      phone_number: null,
    },
  },
  subject_auth: 'ANONYMOUS',
  subject_data: { categories: { necessary: true, functional: true, analytics: true, marketing: true } },
};

/**
 * Seeds RECORDS records straight into consent-svc's schema (SQL, not the API) for the partner's
 * two domains of one merchant (90% / 10%), statuses spread, one a second apart, newest now.
 */
async function seedRecords(databaseUrl: string, partnerId: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (const [i, domainId] of DOMAINS.entries()) {
      await db.query(
        `INSERT INTO consent.properties (property_id, partner_id, domain_id, hostname, status, merchant_ids, company_id, company)
         VALUES ($1, $2, $3, $4, 'ACTIVE', ARRAY['bench-merchant'], 'c1', $5)`,
        [
          PROPERTIES[i],
          partnerId,
          domainId,
          i === 0 ? HOSTNAME : `b.${HOSTNAME}`,
          JSON.stringify({ name: 'Bench AB', email: 'owner@bench.example.com' }),
        ],
      );
    }
    await db.query(
      `INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
       SELECT 'RCPT_' || md5('r' || g), $1, CASE WHEN d = $4 THEN $7 ELSE $6 END, d, 'COOKIE_CONSENT', s,
              $2::jsonb || jsonb_build_object('receipt_id', 'RCPT_' || md5('r' || g), 'receipt_status', s, 'subject', md5('s' || g),
                                              'property_id', CASE WHEN d = $4 THEN $7 ELSE $6 END, 'created_at', to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
              'eyJhbGciOiJFZERTQSIsImtpZCI6ImJlbmNoIn0..' || md5('sig' || g), md5('n' || g), t
       FROM generate_series(1, $3::int) g,
            LATERAL (SELECT CASE WHEN g % 10 = 0 THEN $4 ELSE $5 END AS d, (ARRAY['ALLOWED','ALLOWED','DENIED','PARTIAL'])[g % 4 + 1] AS s,
                            now() - g * interval '1 second' AS t) x`,
      [partnerId, JSON.stringify(TEMPLATE), RECORDS, DOMAINS[1], DOMAINS[0], PROPERTIES[0], PROPERTIES[1]],
    );
    await db.query('VACUUM ANALYZE consent.records, consent.properties');
  } finally {
    await db.end();
  }
}

/**
 * The consent scenarios: the records list at the concurrency one partner's integration brings
 * (4 connections) over RECORDS stored records, and receipts accepted per second. Until the
 * gateway routes public paths, receipts go to consent-svc's port (a gateway-minted token, the
 * Origin and X-Forwarded-For the gateway forwards).
 */
export function consentScenarios(
  urls: { gateway: string; consent: string },
  auth: { key: string; publicToken: string },
) {
  const runId = randomBytes(4).toString('hex');
  const records = (name: string, query: string, target?: Scenario['target']): Scenario => ({
    name: `gateway records list ${name} (${RECORDS.toLocaleString('en')} records, 4 conn.)`,
    connections: 4,
    url: urls.gateway,
    headers: { authorization: `Bearer ${auth.key}` },
    paths: [`/portal/instance/company/records?${query}`],
    target,
  });
  // Each receipt a new nonce; visitors repeat, as on a real site. The gateway limits public calls per address and property: the bench raises those limits.
  const receipts = (name: string, url: string, headers: Record<string, string>): Scenario => ({
    name,
    url,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      origin: `https://${HOSTNAME}`,
      'x-forwarded-for': '89.160.20.112',
    },
    paths: [`/widget/v1/properties/${PROPERTY}/receipts`],
    body: (n) =>
      JSON.stringify({
        receipt_type: 'COOKIE_CONSENT',
        subject: `visitor-${runId}-${n % 5000}-xxxxxx`,
        consent_revision: 'r1',
        categories: { functional: n % 2 === 0, analytics: n % 3 === 0, marketing: false },
        widget_version: '1.0.0',
        nonce: `nonce-${runId}-${name.split(' ')[0]}-${n}-${'x'.repeat(8)}`,
      }),
    target: { rps: 2000 },
  });
  const scenarios: Scenario[] = [
    records('domain_id', `domain_id=${DOMAINS[0]}&limit=10`, { p99Ms: 30 }),
    records('merchant_id + receipt_status', 'merchant_id=bench-merchant&receipt_status=DENIED&limit=10', { p99Ms: 30 }),
    records('domain_id page 100', `domain_id=${DOMAINS[0]}&limit=10&page=100`),
    receipts('gateway receipts (public path, no API key)', urls.gateway, {}),
    receipts('direct receipts (consent-svc)', urls.consent, { authorization: `Bearer ${auth.publicToken}` }),
  ];
  return { scenarios, seed: (databaseUrl: string, partnerId: string) => seedRecords(databaseUrl, partnerId) };
}

import { sql, type Kysely } from '@platform/db';
import type { ConsentDb } from '../src/db/tables';

/**
 * `n` records of one domain as the widget would have stored them, made by PostgreSQL
 * (generate_series), one every `everyMs` from `start`: COOKIE_CONSENT, ALLOWED, PARTIAL or DENIED
 * in turn, with a body shaped as a real record's (data collection, controller, subject data).
 */
export async function seedRecords(
  db: Kysely<ConsentDb>,
  where: { partnerId: string; propertyId: string; domainId: string },
  n: number,
  start: Date,
  everyMs = 1_000,
) {
  // Ids unique across calls (the id is the table's key): a random tag, then the number.
  const tag = Math.random().toString(36).slice(2, 8).padEnd(6, '0');
  // In pieces of 20,000: each statement stays well within the pool's statement timeout.
  for (let from = 0; from < n; from += SEED_PIECE)
    await seedPiece(db, where, { tag, from, to: Math.min(n, from + SEED_PIECE) - 1, start, everyMs });
}

const SEED_PIECE = 20_000;

async function seedPiece(
  db: Kysely<ConsentDb>,
  where: { partnerId: string; propertyId: string; domainId: string },
  { tag, from, to, start, everyMs }: { tag: string; from: number; to: number; start: Date; everyMs: number },
) {
  await sql`
    INSERT INTO consent.records (id, partner_id, property_id, domain_id, receipt_type, receipt_status, body, signature, nonce, created_at)
    SELECT id, ${where.partnerId}::text, ${where.propertyId}::text, ${where.domainId}::text, 'COOKIE_CONSENT', status,
      jsonb_build_object(
        'receipt_id', id, 'receipt_type', 'COOKIE_CONSENT', 'receipt_status', status,
        'country', 'DE', 'region', 'Berlin', 'jurisdiction', 'GDPR',
        'meta', jsonb_build_object('widget_version', '1.0.0', 'consent_revision', 'rev-1', 'gpc', i % 7 = 0),
        'data_collection', jsonb_build_array(jsonb_build_object('name', 'shop.example', 'description', 'Cookies and similar technologies on shop.example',
          'fields', '[]'::jsonb, 'partners', '[]'::jsonb, 'processors', '[]'::jsonb,
          'purposes', jsonb_build_array(
            jsonb_build_object('category', 'necessary', 'name', 'Strictly necessary', 'status', 'GRANTED'),
            jsonb_build_object('category', 'functional', 'name', 'Functional', 'status', CASE WHEN status <> 'DENIED' THEN 'GRANTED' ELSE 'DENIED' END),
            jsonb_build_object('category', 'analytics', 'name', 'Analytics', 'status', CASE WHEN status = 'ALLOWED' THEN 'GRANTED' ELSE 'DENIED' END),
            jsonb_build_object('category', 'marketing', 'name', 'Marketing', 'status', CASE WHEN status = 'ALLOWED' THEN 'GRANTED' ELSE 'DENIED' END)))),
        'data_controller', jsonb_build_object('name', 'Shop GmbH', 'email', 'owner@example.com', 'url', 'https://shop.example'),
        'subject', 'visitor-' || i, 'subject_auth', 'ANONYMOUS',
        'subject_data', jsonb_build_object('categories', jsonb_build_object('necessary', true,
          'functional', status <> 'DENIED', 'analytics', status = 'ALLOWED', 'marketing', status = 'ALLOWED')),
        'property_id', ${where.propertyId}::text, 'created_at', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      'sig-' || i, 'nonce-' || ${tag}::text || '-' || i, at
    FROM (
      SELECT i, 'RCPT_' || ${tag}::text || lpad(i::text, 26, '0') AS id,
        (ARRAY['ALLOWED', 'PARTIAL', 'DENIED'])[i % 3 + 1] AS status,
        ${start}::timestamptz + (i * ${everyMs}::bigint) * interval '1 millisecond' AS at
      FROM generate_series(${from}::int, ${to}::int) AS i
    ) s`.execute(db);
}

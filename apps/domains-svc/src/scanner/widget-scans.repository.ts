import type { Kysely } from 'kysely';
import type { ScanFindings } from '@platform/contracts';
import type { DomainsDb } from '../db/tables';

export interface NewWidgetScan {
  id: string;
  partnerId: string;
  tokenHash: Buffer;
  scanId: string;
  domainId: string;
  hostname: string;
  email: string;
}

export async function insertWidgetScan(db: Kysely<DomainsDb>, w: NewWidgetScan): Promise<void> {
  await db
    .insertInto('widget_scans')
    .values({
      id: w.id,
      partner_id: w.partnerId,
      token_hash: w.tokenHash,
      scan_id: w.scanId,
      domain_id: w.domainId,
      hostname: w.hostname,
      email: w.email,
    })
    .execute();
}

/** The widget scans of a scan whose report is not sent yet, marked sent (in the caller's transaction): their addresses. */
export async function takeUnreported(db: Kysely<DomainsDb>, scanId: string, at: Date): Promise<string[]> {
  const rows = await db
    .updateTable('widget_scans')
    .set({ reported_at: at })
    .where('scan_id', '=', scanId)
    .where('reported_at', 'is', null)
    .returning('email')
    .execute();
  return [...new Set(rows.map((r) => r.email))];
}

/** A widget scan by the partner and its token's hash, with its scan's status and what it found. */
export function findWidgetScan(db: Kysely<DomainsDb>, partnerId: string, tokenHash: Buffer) {
  return db
    .selectFrom('widget_scans as w')
    .innerJoin('scans as s', 's.id', 'w.scan_id')
    .select(['w.hostname', 's.status', 's.pages', 's.findings'])
    .where('w.partner_id', '=', partnerId)
    .where('w.token_hash', '=', tokenHash)
    .executeTakeFirst()
    .then((row) => row && { ...row, pages: row.pages as string[], findings: row.findings as ScanFindings | null });
}

/** Forgets widget scans after 30 days (the visitor's address with them), at most 1,000 a statement; how many it removed. */
export async function pruneWidgetScans(db: Kysely<DomainsDb>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 30 * 24 * 3_600_000);
  const result = await db
    .deleteFrom('widget_scans')
    .where('id', 'in', (q) => q.selectFrom('widget_scans').select('id').where('created_at', '<', before).limit(1_000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

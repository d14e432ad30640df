import type { DsarStatus } from '@platform/contracts';
import { sql, type Kysely } from '@platform/db';
import { scopeDomains, type RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';

/** A request with what its wire shape and mails need from its property. */
const requestColumns = [
  'r.id',
  'r.partner_id',
  'r.domain_id',
  'r.property_id',
  'r.type',
  'r.status',
  'r.email',
  'r.name',
  'r.message',
  'r.jurisdiction',
  'r.deadline_rule',
  'r.created_at',
  'r.verified_at',
  'r.due_at',
  'r.extended_at',
  'r.extension_reason',
  'r.reminded_days',
  'r.overdue_at',
  'r.closed_at',
  'r.held',
  'p.hostname',
  'p.company',
] as const;

const withProperty = (db: Kysely<ConsentDb>) =>
  db.selectFrom('data_requests as r').innerJoin('properties as p', 'p.property_id', 'r.property_id');

export type RequestRow = Awaited<ReturnType<typeof findRequestById>> & object;

export async function findRequestById(db: Kysely<ConsentDb>, id: string, forUpdate = false) {
  const q = withProperty(db).select(requestColumns).where('r.id', '=', id);
  return (forUpdate ? q.forUpdate('r') : q).executeTakeFirst();
}

/** Whether the scope names anything of the partner's: another partner's domain or merchant is 404, not an empty list. */
export async function scopeExists(db: Kysely<ConsentDb>, scope: RecordScope) {
  const domains = scopeDomains(scope)!;
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM properties p WHERE p.partner_id = ${scope.partnerId} AND NOT p.deleted
        AND p.domain_id IN (SELECT d.id FROM ${domains})
    ) AS found`.execute(db);
  return rows[0].found;
}

export interface RequestFilters {
  status?: DsarStatus;
  dueBefore?: Date;
  dueAfter?: Date;
}

/** One page (limit + 1 rows) of the scope's requests, newest first. */
export async function listRequests(
  db: Kysely<ConsentDb>,
  scope: RecordScope,
  f: RequestFilters,
  window: { offset: number; limitPlusOne: number },
) {
  const domains = scopeDomains(scope)!;
  let q = withProperty(db)
    .select(requestColumns)
    .where('r.partner_id', '=', scope.partnerId)
    .where(sql<boolean>`r.domain_id IN (SELECT d.id FROM ${domains})`);
  if (f.status) q = q.where('r.status', '=', f.status);
  if (f.dueBefore) q = q.where('r.due_at', '<', f.dueBefore);
  if (f.dueAfter) q = q.where('r.due_at', '>=', f.dueAfter);
  return q
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .offset(window.offset)
    .limit(window.limitPlusOne)
    .execute();
}

/** One request of the scope, or undefined (another domain's, another partner's). */
export async function findScopedRequest(db: Kysely<ConsentDb>, scope: RecordScope, id: string, forUpdate = false) {
  const domains = scopeDomains(scope)!;
  const q = withProperty(db)
    .select(requestColumns)
    .where('r.id', '=', id)
    .where('r.partner_id', '=', scope.partnerId)
    .where(sql<boolean>`r.domain_id IN (SELECT d.id FROM ${domains})`);
  return (forUpdate ? q.forUpdate('r') : q).executeTakeFirst();
}

export async function historyOf(db: Kysely<ConsentDb>, requestIds: string[]) {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('data_request_history')
    .select(['request_id', 'at', 'kind', 'status', 'note', 'actor'])
    .where('request_id', 'in', requestIds)
    .orderBy('at')
    .orderBy('id')
    .execute();
}
export type HistoryRow = Awaited<ReturnType<typeof historyOf>>[number];

export interface HistoryEntry {
  requestId: string;
  kind: string;
  status?: string;
  note?: string;
  actor?: string;
  at: Date;
}

export async function addHistory(db: Kysely<ConsentDb>, entries: HistoryEntry[]) {
  if (entries.length === 0) return;
  await db
    .insertInto('data_request_history')
    .values(
      entries.map((e) => ({
        request_id: e.requestId,
        kind: e.kind,
        status: e.status ?? null,
        note: e.note ?? null,
        actor: e.actor ?? null,
        at: e.at,
      })),
    )
    .execute();
}

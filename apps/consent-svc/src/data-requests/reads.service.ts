import type { ListDataRequestsQuery } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import { listPage, notFound } from '@platform/http';
import type { RecordScope } from '../db/records.repository';
import type { ConsentDb } from '../db/tables';
import { findScopedRequest, historyOf, listRequests, scopeExists } from './requests.repository';
import { toDataRequest } from './wire';

export const scopeOf = (partnerId: string, q: { merchant_id?: string; domain_id?: string }): RecordScope => ({
  partnerId,
  domainId: q.domain_id,
  merchantId: q.merchant_id,
});

/** A page of the scope's requests, newest first, with their histories; another partner's domain or merchant: 404. */
export async function listDataRequests(
  db: Kysely<ConsentDb>,
  partnerId: string,
  query: ListDataRequestsQuery,
  now = new Date(),
) {
  const scope = scopeOf(partnerId, query);
  if (!(await scopeExists(db, scope))) throw notFound('domain');
  const filters = {
    status: query.status,
    dueBefore: query.due_before ? new Date(query.due_before) : undefined,
    dueAfter: query.due_after ? new Date(query.due_after) : undefined,
  };
  const page = await listPage(query, (window) => listRequests(db, scope, filters, window));
  const history = await historyOf(
    db,
    page.items.map((r) => r.id),
  );
  return { meta: page.meta, result: page.items.map((row) => toDataRequest(row, history, now)) };
}

export async function getDataRequest(db: Kysely<ConsentDb>, scope: RecordScope, requestId: string, now = new Date()) {
  if (!(await scopeExists(db, scope))) throw notFound('domain');
  const row = await findScopedRequest(db, scope, requestId);
  if (!row) throw notFound('request');
  return toDataRequest(row, await historyOf(db, [row.id]), now);
}

import {
  DATA_REQUEST_EVENTS,
  DSAR_OPEN_STATUSES,
  type DataRequest,
  type DsarStatus,
  type DsarType,
  type EventPayload,
} from '@platform/contracts';
import { writeOutbox } from '@platform/messaging';
import type { Kysely } from '@platform/db';
import { SCHEMA, type ConsentDb } from '../db/tables';
import type { HistoryRow, RequestRow } from './requests.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The request as partners and owners read it (history: its own steps, oldest first). */
export function toDataRequest(row: RequestRow, history: HistoryRow[], now: Date): DataRequest {
  return {
    request_id: row.id,
    domain_id: row.domain_id,
    property_id: row.property_id,
    hostname: row.hostname,
    type: row.type as DsarType,
    status: row.status as DsarStatus,
    email: row.email,
    name: row.name,
    message: row.message,
    jurisdiction: row.jurisdiction,
    deadline_rule: row.deadline_rule as DataRequest['deadline_rule'],
    created_at: row.created_at.toISOString(),
    verified_at: iso(row.verified_at),
    due_at: iso(row.due_at),
    extended_at: iso(row.extended_at),
    extension_reason: row.extension_reason,
    overdue: isOverdue(row, now),
    closed_at: iso(row.closed_at),
    history: history
      .filter((h) => h.request_id === row.id)
      .map((h) => ({
        at: h.at.toISOString(),
        kind: h.kind as DataRequest['history'][number]['kind'],
        status: h.status as DsarStatus | null,
        note: h.note,
        actor: h.actor,
      })),
  };
}

export const isOverdue = (row: Pick<RequestRow, 'status' | 'due_at'>, now: Date) =>
  DSAR_OPEN_STATUSES.includes(row.status as DsarStatus) && row.due_at !== null && row.due_at < now;

type EventKey = keyof typeof DATA_REQUEST_EVENTS;

/** The request's event, in the caller's transaction (consent-svc's outbox -> RabbitMQ -> webhook-svc). */
export async function writeRequestEvent(trx: Kysely<ConsentDb>, row: RequestRow, key: EventKey, now: Date) {
  const { history: _history, ...data } = toDataRequest(row, [], now);
  const payload: EventPayload = {
    event: DATA_REQUEST_EVENTS[key],
    params: {
      request_id: row.id,
      domain_id: row.domain_id,
      property_id: row.property_id,
      type: data.type,
      status: data.status,
      due_at: data.due_at,
    },
    entity: { kind: 'data_request', data },
  };
  await writeOutbox(trx, SCHEMA, 'consent-svc', [{ partnerId: row.partner_id, aggregateId: row.id, payload }]);
}

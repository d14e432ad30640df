import type { Kysely } from '@platform/db';
import type { AuditEvent, AuditKind } from '@platform/contracts';
import type { AuditEventsTable, GatewayDb } from '../db/tables';

/** Who did it: a signed-in user, an API key, an operator with the admin CLI, or a customer's user in the owner console. */
export interface Actor {
  type: AuditEventsTable['actor_type'];
  id: string | null;
  label: string;
}

export interface AuditEntry {
  partnerId: string;
  kind: AuditKind;
  actor: Actor;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
  at: Date;
}

export interface AuditEventRow {
  id: string;
  kind: string;
  actor_type: Actor['type'];
  actor_id: string | null;
  actor_label: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

/**
 * How a service of the portal records its changes to one type of target (api_key, user): in the
 * change's transaction, naming who made it (a user or an operator), at the service's clock.
 */
export const changeRecorder =
  <K extends AuditKind>(targetType: string, now: () => number) =>
  (
    trx: Kysely<GatewayDb>,
    by: { partnerId: string; actor: Actor },
    kind: K,
    targetId: string,
    details: Record<string, unknown>,
  ) =>
    new AuditRepository(trx).record({
      partnerId: by.partnerId,
      kind,
      actor: by.actor,
      target: { type: targetType, id: targetId },
      details,
      at: new Date(now()),
    });

/** An audit event as GET /portal/audit-events answers it. */
export const auditEventView = (e: AuditEventRow): AuditEvent => ({
  id: e.id,
  kind: e.kind as AuditKind,
  actor: { type: e.actor_type, id: e.actor_id, label: e.actor_label },
  target: e.target_type && e.target_id ? { type: e.target_type, id: e.target_id } : null,
  details: e.details,
  created_at: e.created_at.toISOString(),
});

/** All SQL on audit_events. */
export class AuditRepository {
  constructor(private readonly db: Kysely<GatewayDb>) {}

  async record(entry: AuditEntry) {
    await this.db
      .insertInto('audit_events')
      .values({
        partner_id: entry.partnerId,
        kind: entry.kind,
        actor_type: entry.actor.type,
        actor_id: entry.actor.id,
        actor_label: entry.actor.label,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        details: JSON.stringify(entry.details ?? {}),
        created_at: entry.at,
      })
      .execute();
  }

  list(
    partnerId: string,
    filter: { actorId?: string; kind?: string },
    offset: number,
    limit: number,
  ): Promise<AuditEventRow[]> {
    let query = this.db
      .selectFrom('audit_events')
      .select([
        'id',
        'kind',
        'actor_type',
        'actor_id',
        'actor_label',
        'target_type',
        'target_id',
        'details',
        'created_at',
      ])
      .where('partner_id', '=', partnerId);
    if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  }
}

// The fake API's data subject requests inbox (/portal/owner/domains/{domainId}/requests): each ACTIVE
// domain's requests in every status (one overdue), the status moves, the one extension and notes with
// consent-svc's rules (409 DATA_REQUEST.INVALID_TRANSITION), newest first in pages.
import {
  DSAR_CLOSED_STATUSES,
  DSAR_DEADLINES,
  DSAR_OPEN_STATUSES,
  type DataRequest,
  type DomainDetail,
  type DsarStatus,
  type DsarType,
} from '@platform/contracts';
import { AppError } from './fake-errors';
import { NOW } from './fake-data';
import type { FakeOwnerConsole } from './fake-owner';
import type { Answer, FakeOwnerSession } from './fake-state';

type Json = Record<string, unknown>;
interface Ctx {
  params: Record<string, string>;
  query: Json;
  body: Json;
  owner: FakeOwnerSession | undefined;
}
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

/** [type, status, days ago received, days to due (null: not verified)] */
const SEED: [DsarType, DsarStatus, number, number | null][] = [
  ['deletion', 'VERIFIED', 35, -3],
  ['access', 'VERIFIED', 2, 28],
  ['portability', 'IN_PROGRESS', 10, 20],
  ['correction', 'RECEIVED', 0, null],
  ['opt_out', 'COMPLETED', 40, -10],
  ['access', 'EXPIRED', 5, null],
];

/** Newest first, as consent-svc lists them. */
function seed(d: DomainDetail): DataRequest[] {
  return seedOf(d).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

function seedOf(d: DomainDetail): DataRequest[] {
  return SEED.map(([type, status, ago, due], i) => ({
    request_id: `DSR_${d.id.replace(/\W/g, '')}${String(i).padStart(24, '0')}`.slice(0, 36),
    domain_id: d.id,
    property_id: d.instance_property_id,
    hostname: d.hostname,
    type,
    status,
    email: `requester${i + 1}@example.net`,
    name: i === 0 ? 'Rita Requester' : null,
    message: i === 0 ? 'Please delete my account and my order history.' : null,
    jurisdiction: 'GDPR',
    deadline_rule: 'GDPR',
    created_at: at(-ago),
    verified_at: due === null ? null : at(-ago + 0.01),
    due_at: due === null ? null : at(due),
    extended_at: null,
    extension_reason: null,
    overdue: due !== null && due < 0 && DSAR_OPEN_STATUSES.includes(status),
    closed_at: DSAR_CLOSED_STATUSES.includes(status) ? at(-ago + 5) : null,
    history: [{ at: at(-ago), kind: 'received', status: 'RECEIVED', note: null, actor: null }],
  }));
}

const NEXT: Partial<Record<DsarStatus, DsarStatus[]>> = {
  VERIFIED: ['IN_PROGRESS', 'COMPLETED', 'REJECTED'],
  IN_PROGRESS: ['COMPLETED', 'REJECTED'],
};
const refused = () =>
  new AppError('DATA_REQUEST.INVALID_TRANSITION', 409, "The request's status does not allow this change.");

export class FakeOwnerRequests {
  private readonly byDomain = new Map<string, DataRequest[]>();
  constructor(private readonly console: FakeOwnerConsole) {}

  requestsOf(d: DomainDetail): DataRequest[] {
    if (!this.byDomain.has(d.id)) this.byDomain.set(d.id, d.status === 'ACTIVE' ? seed(d) : []);
    return this.byDomain.get(d.id)!;
  }

  private one(ctx: Ctx) {
    const r = this.requestsOf(this.console.domainOf(ctx.owner, ctx.params.domainId)).find(
      (x) => x.request_id === ctx.params.requestId,
    );
    if (!r) throw new AppError('RESOURCE.NOT_FOUND', 404, 'The resource does not exist.');
    return r;
  }

  private update(r: DataRequest, body: { status?: DsarStatus; extend?: { reason: string }; note?: string }) {
    if (body.extend) {
      if (r.extended_at || !DSAR_OPEN_STATUSES.includes(r.status)) throw refused();
      r.due_at = new Date(Date.parse(r.due_at!) + DSAR_DEADLINES.GDPR.extensionDays * DAY).toISOString();
      r.extended_at = NOW.toISOString();
      r.extension_reason = body.extend.reason;
      r.overdue = false;
      r.history.push({
        at: NOW.toISOString(),
        kind: 'extended',
        status: null,
        note: body.extend.reason,
        actor: 'owner:x',
      });
    }
    if (body.status) {
      if (!(NEXT[r.status] ?? []).includes(body.status)) throw refused();
      r.status = body.status;
      if (DSAR_CLOSED_STATUSES.includes(body.status)) {
        r.closed_at = NOW.toISOString();
        r.overdue = false;
      }
      r.history.push({
        at: NOW.toISOString(),
        kind: 'status',
        status: body.status,
        note: body.note ?? null,
        actor: 'owner:x',
      });
    } else if (body.note)
      r.history.push({ at: NOW.toISOString(), kind: 'note', status: null, note: body.note, actor: 'owner:x' });
  }

  readonly handlers: Record<string, (ctx: Ctx) => Answer> = {
    listOwnerRequests: ({ owner, params, query }) => {
      const rows = this.requestsOf(this.console.domainOf(owner, params.domainId)).filter(
        (r) => !query.status || r.status === query.status,
      );
      const p = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 10);
      const meta = {
        current_page: p,
        ...(rows.length > p * limit ? { next_page: p + 1 } : {}),
        ...(p > 1 ? { prev_page: p - 1 } : {}),
      };
      return { body: { meta, result: rows.slice((p - 1) * limit, p * limit) } };
    },
    getOwnerRequest: (ctx) => ({ body: { result: this.one(ctx) } }),
    updateOwnerRequest: (ctx) => {
      const r = this.one(ctx);
      this.update(r, ctx.body);
      return { body: { result: r } };
    },
  };
}

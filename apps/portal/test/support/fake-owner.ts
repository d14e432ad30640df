// The fake API's owner console (/portal/owner/domains/{domainId}/..., /portal/owner/users): each
// domain's property, company, install check, scan and records, and the company's access users, with
// the gateway's rules (another company's domain: 404; the last owner with access: 409; only an owner
// touches the owner role: 403). The role a route needs (ownerRole) is checked in fake-api.ts.
import { domainFigures } from './fake-figures';
import {
  accessRoleAtLeast,
  errorObject,
  type AccessUser,
  type DomainDetail,
  type InstallCheckStatus,
  type InstanceCompany,
  type PropertyEntityData,
  type ScanReport,
} from '@platform/contracts';
import { AppError } from './fake-errors';
import { NOW } from './fake-data';
import * as data from './fake-owner-data';
import type { Answer, FakeOwnerSession, FakeOwnerUser, FakeState } from './fake-state';

type Json = Record<string, unknown>;
interface OwnerCtx {
  params: Record<string, string>;
  query: Json;
  body: Json;
  owner: FakeOwnerSession | undefined;
}

const ok = (result: unknown, status?: number): Answer => ({ status, body: { result } });
const notFound = () => new AppError('RESOURCE.NOT_FOUND', 404, 'The resource does not exist.');
const lastOwner = () => new AppError('ACCESS_USER.LAST_OWNER', 409, errorObject('ACCESS_USER.LAST_OWNER').message);
const ownersOnly = () =>
  new AppError('AUTH.FORBIDDEN', 403, 'Only an OWNER may grant, change or remove the OWNER role.');
/** The scanner's minimum interval between two scans of one domain. */
const SCAN_INTERVAL_S = 3600;

const INSTALL_MESSAGES: Record<InstallCheckStatus, (host: string) => string> = {
  INSTALLED: (h) => `The snippet is the first script in <head> of https://${h}/.`,
  NOT_FIRST_IN_HEAD: (h) => `The snippet is on https://${h}/, but 2 scripts come before it in <head>.`,
  NOT_FOUND: (h) => `https://${h}/ answered 200, but its HTML has no snippet of this domain.`,
  UNREACHABLE: (h) => `https://${h}/ did not answer within 10 s (connection timed out).`,
};
const DEFAULT_INSTALL: Record<DomainDetail['status'], InstallCheckStatus> = {
  ACTIVE: 'INSTALLED',
  INVITED: 'NOT_FIRST_IN_HEAD',
  SCANNED: 'NOT_FOUND',
  NEW: 'UNREACHABLE',
  INACTIVE: 'NOT_FOUND',
};

export class FakeOwnerConsole {
  private readonly properties = new Map<string, PropertyEntityData>();
  private readonly companies = new Map<string, InstanceCompany>();
  /** The latest scan per domain (its progress advances one step per read, as the imports' does). */
  readonly scans = new Map<string, ScanReport>();
  /** A test may set a domain's install check outcome; by default it follows the domain's status. */
  readonly installStatus = new Map<string, InstallCheckStatus>();
  private readonly completedScans = new Map<string, ScanReport>();

  constructor(private readonly state: FakeState) {
    for (const d of state.domains) {
      if (d.status === 'NEW') continue;
      const scan = data.scanReport(d);
      this.scans.set(d.id, scan);
      this.completedScans.set(d.id, scan);
    }
  }

  userOf(owner: FakeOwnerSession): FakeOwnerUser {
    return this.state.ownerUsers.get(owner.ownerUserId)!;
  }

  /** One of the signed-in customer's domains; any other id is a 404, as on the gateway. */
  domainOf(owner: FakeOwnerSession | undefined, domainId: string): DomainDetail {
    const d = this.state.domains.find((x) => x.id === domainId);
    if (!d || !owner || d.instance_company_id !== this.userOf(owner).companyId) throw notFound();
    return d;
  }

  private propertyOf(d: DomainDetail) {
    if (!this.properties.has(d.id)) this.properties.set(d.id, data.property(d));
    return this.properties.get(d.id)!;
  }

  private companyOf(d: DomainDetail) {
    if (!this.companies.has(d.instance_company_id)) this.companies.set(d.instance_company_id, data.company(d));
    return this.companies.get(d.instance_company_id)!;
  }

  private usersOf(owner: FakeOwnerSession) {
    const companyId = this.userOf(owner).companyId;
    return [...this.state.ownerUsers.values()].filter((u) => u.companyId === companyId);
  }

  private targetOf(owner: FakeOwnerSession, userId: string) {
    const u = this.usersOf(owner).find((x) => x.id === userId);
    if (!u) throw notFound();
    return u;
  }

  /** The rules of a change to `target`: owners alone touch owners; the last owner with access stays one. */
  private checkChange(owner: FakeOwnerSession, target: FakeOwnerUser, after: Partial<FakeOwnerUser> | null) {
    const actor = this.userOf(owner);
    if ((target.role === 'OWNER' || after?.role === 'OWNER') && actor.role !== 'OWNER') throw ownersOnly();
    const stillOwner = after !== null && (after.role ?? target.role) === 'OWNER' && (after.access ?? target.access);
    const others = this.usersOf(owner).filter((u) => u.id !== target.id && u.role === 'OWNER' && u.access);
    if (target.role === 'OWNER' && target.access && !stillOwner && others.length === 0) throw lastOwner();
  }

  private endSessions(userId: string) {
    for (const [cookie, s] of this.state.ownerSessions)
      if (s.ownerUserId === userId) this.state.ownerSessions.delete(cookie);
  }

  /** GET .../scan: a queued scan starts at the next read, a running one completes at the one after. */
  private advance(d: DomainDetail): ScanReport | undefined {
    const scan = this.scans.get(d.id);
    if (scan?.status === 'queued')
      this.scans.set(d.id, { ...scan, status: 'running', mode: 'browser', started_at: NOW.toISOString() });
    if (scan?.status === 'running') {
      const done = data.scanReport(d, scan.id, NOW.toISOString());
      this.scans.set(d.id, done);
      this.completedScans.set(d.id, done);
    }
    return scan;
  }

  private startScan(d: DomainDetail): Answer {
    const latest = this.scans.get(d.id);
    if (latest && (latest.status === 'queued' || latest.status === 'running'))
      throw new AppError('DOMAIN.SCAN_IN_PROGRESS', 409, 'A scan of this domain is already queued or running.', {
        scan_id: latest.id,
        status: latest.status,
      });
    const wait = latest?.finished_at
      ? Math.ceil((Date.parse(latest.finished_at) + SCAN_INTERVAL_S * 1000 - NOW.getTime()) / 1000)
      : 0;
    if (wait > 0)
      throw new AppError(
        'RATE.LIMITED',
        429,
        `The domain was scanned less than ${SCAN_INTERVAL_S} s ago; retry after ${wait} s.`,
        { retry_after: wait },
        { 'Retry-After': String(wait) },
      );
    const queued = data.queuedScan(d, `scan_${d.id}_${this.scans.size + 1}`);
    this.scans.set(d.id, queued);
    return ok(queued, 202);
  }

  private records(d: DomainDetail, query: Json) {
    const all = d.status === 'ACTIVE' ? data.consentRecords(d) : [];
    return all.filter(
      (r) =>
        (!query.receipt_type || r.receipt_type === query.receipt_type) &&
        (!query.receipt_status || r.receipt_status === query.receipt_status),
    );
  }

  readonly handlers: Record<string, (ctx: OwnerCtx) => Answer> = {
    getOwnerProperty: ({ owner, params }) => ok(this.propertyOf(this.domainOf(owner, params.domainId))),
    updateOwnerProperty: ({ owner, params, body }) =>
      ok(Object.assign(this.propertyOf(this.domainOf(owner, params.domainId)), body)),
    getOwnerCompany: ({ owner, params }) => ok(this.companyOf(this.domainOf(owner, params.domainId))),
    updateOwnerCompany: ({ owner, params, body }) => {
      const c = this.companyOf(this.domainOf(owner, params.domainId));
      const { address, owner: person, dpo, ...top } = body as { address?: Json; owner?: Json; dpo?: Json | null };
      Object.assign(c, top);
      Object.assign(c.address, address ?? {});
      Object.assign(c.owner, person ?? {});
      // As domains-svc: dpo null clears both; a DPO with neither field set is null.
      if (dpo !== undefined) {
        const next = (dpo === null ? null : { name: null, email: null, ...c.dpo, ...dpo }) as InstanceCompany['dpo'];
        c.dpo = next && (next.name !== null || next.email !== null) ? next : null;
      }
      return ok(c);
    },
    checkOwnerInstall: ({ owner, params }) => {
      const d = this.domainOf(owner, params.domainId);
      const status = this.installStatus.get(d.id) ?? DEFAULT_INSTALL[d.status];
      return ok({
        domain_id: d.id,
        url: `https://${d.hostname}/`,
        status,
        snippet_found: status === 'INSTALLED' || status === 'NOT_FIRST_IN_HEAD',
        first_in_head: status === 'INSTALLED',
        message: INSTALL_MESSAGES[status](d.hostname),
        checked_at: NOW.toISOString(),
      });
    },
    getOwnerScan: ({ owner, params }) => {
      const scan = this.advance(this.domainOf(owner, params.domainId));
      if (!scan) throw notFound();
      return ok(scan);
    },
    startOwnerScan: ({ owner, params }) => this.startScan(this.domainOf(owner, params.domainId)),
    getOwnerCookieDeclaration: ({ owner, params }) => {
      const d = this.domainOf(owner, params.domainId);
      return ok(data.declaration(d, this.completedScans.get(d.id)));
    },
    listOwnerRecords: ({ owner, params, query }) => {
      const rows = this.records(this.domainOf(owner, params.domainId), query);
      const p = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 10);
      const meta = {
        current_page: p,
        ...(rows.length > p * limit ? { next_page: p + 1 } : {}),
        ...(p > 1 ? { prev_page: p - 1 } : {}),
      };
      return { body: { meta, result: rows.slice((p - 1) * limit, p * limit) } };
    },
    exportOwnerRecords: ({ owner, params, query }) => ({
      body: data.recordsCsv(this.records(this.domainOf(owner, params.domainId), query)),
      contentType: 'text/csv; charset=utf-8',
    }),
    getOwnerStats: ({ owner, params, query }) =>
      ok(domainFigures(this.domainOf(owner, params.domainId), String(query.from), String(query.to))),
    listOwnerUsers: ({ owner }) => ok(this.usersOf(owner!).map(toAccessUser)),
    inviteOwnerUser: ({ owner, body }) => {
      if (body.role === 'OWNER' && this.userOf(owner!).role !== 'OWNER') throw ownersOnly();
      if (this.usersOf(owner!).some((u) => u.email === body.email))
        throw new AppError('ACCESS_USER.ALREADY_EXISTS', 409, errorObject('ACCESS_USER.ALREADY_EXISTS').message);
      const u: FakeOwnerUser = {
        id: `own_${this.state.ownerUsers.size + 1}`,
        email: String(body.email),
        name: (body.name as string | undefined) ?? null,
        role: body.role as FakeOwnerUser['role'],
        companyId: this.userOf(owner!).companyId,
        access: true,
        lastSignInAt: null,
        createdAt: NOW.toISOString(),
      };
      this.state.ownerUsers.set(u.id, u);
      return ok(toAccessUser(u), 201);
    },
    updateOwnerUser: ({ owner, params, body }) => {
      const target = this.targetOf(owner!, params.userId);
      this.checkChange(owner!, target, body as Partial<FakeOwnerUser>);
      Object.assign(target, body);
      if (body.access === false) this.endSessions(target.id);
      return ok(toAccessUser(target));
    },
    deleteOwnerUser: ({ owner, params }) => {
      const target = this.targetOf(owner!, params.userId);
      this.checkChange(owner!, target, null);
      this.state.ownerUsers.delete(target.id);
      this.endSessions(target.id);
      return ok({ deleted: true });
    },
  };
}

const toAccessUser = (u: FakeOwnerUser): AccessUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  access: u.access,
  company_id: u.companyId,
  last_sign_in_at: u.lastSignInAt,
  created_at: u.createdAt,
});

/** Whether an owner session may call a route that needs `role` (VIEWER < ADMIN < OWNER), as the gateway checks it. */
export const ownerMay = (user: FakeOwnerUser, role: FakeOwnerUser['role']) => accessRoleAtLeast(user.role, role);

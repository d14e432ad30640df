import {
  consentFigureRoutes,
  consentRecordRoutes,
  cookieDeclarationOf,
  domainRoutes,
  instanceRoutes,
  routeOf,
  scanRoutes,
  type AuditKind,
  type CookieDeclaration,
  type DomainDetail,
  type OwnerRecordsExportQuery,
  type OwnerRecordsQuery,
  type UpdateInstanceCompanyBody,
  type UpdateInstancePropertyBody,
} from '@platform/contracts';
import { inTransaction, type Kysely } from '@platform/db';
import { AppError, notFound } from '@platform/http';
import type { ServiceCaller } from '@platform/service';
import { AuditRepository } from '../audit/audit.repository';
import type { GatewayDb } from '../db/tables';
import { ownerActor, ownerCallAs, type SignedInOwner } from '../identity/signed-in-owner';

const getDomain = routeOf(domainRoutes, 'getDomain');
const getProperty = routeOf(instanceRoutes, 'getInstanceProperty');
const updateProperty = routeOf(instanceRoutes, 'updateInstanceProperty');
const getCompany = routeOf(instanceRoutes, 'getInstanceCompany');
const updateCompany = routeOf(instanceRoutes, 'updateInstanceCompany');
const getScan = routeOf(scanRoutes, 'getDomainScan');
const startScan = routeOf(scanRoutes, 'startDomainScan');
const checkInstall = routeOf(scanRoutes, 'checkDomainInstall');
const listRecords = routeOf(consentRecordRoutes, 'listRecords');
const exportRecords = routeOf(consentFigureRoutes, 'exportRecords');
const getStats = routeOf(consentFigureRoutes, 'getPropertyStats');

// The owner's body as the console's route parsed it: the same schema the partner route takes.
type PropertyChange = UpdateInstancePropertyBody;
type CompanyChange = UpdateInstanceCompanyBody;

export interface OwnerDomainsDeps {
  domains: ServiceCaller;
  consent: ServiceCaller;
  /** The partner's audit log, where the owner's changes are recorded. */
  db: Kysely<GatewayDb>;
  now: () => number;
}

/**
 * The owner console's side of one of the customer's domains: each call first makes sure the
 * domain is the signed-in customer's (domains-svc's getDomain as the partner, then its company:
 * any other domain, of this partner or another, is 404), then calls the partner route the
 * console's route stands for, acting for the partner with keyId owner:<id>. Changes are recorded
 * in the partner's audit log, naming the owner.
 */
export class OwnerDomains {
  constructor(private readonly deps: OwnerDomainsDeps) {}

  /** consent-svc, for the console's other features on a domain (owner-requests.ts). */
  get consent(): ServiceCaller {
    return this.deps.consent;
  }

  /** The customer's domain, or 404 RESOURCE.NOT_FOUND as domains-svc answers an unknown one. */
  async domainOf(owner: SignedInOwner, domainId: string): Promise<DomainDetail> {
    const { result } = await this.deps.domains.call(getDomain, { as: ownerCallAs(owner), params: { domainId } });
    if (result.instance_company_id !== owner.companyId) throw notFound('domain');
    return result;
  }

  async property(owner: SignedInOwner, domainId: string) {
    const domain = await this.domainOf(owner, domainId);
    return (await this.deps.domains.call(getProperty, { as: ownerCallAs(owner), query: { domain_id: domain.id } }))
      .result;
  }

  async updateProperty(owner: SignedInOwner, domainId: string, body: PropertyChange) {
    const domain = await this.domainOf(owner, domainId);
    const { result } = await this.deps.domains.call(updateProperty, {
      as: ownerCallAs(owner),
      query: { domain_id: domain.id },
      body,
    });
    await this.audit(owner, 'property.updated', { type: 'property', id: result.id }, domain, body);
    return result;
  }

  async company(owner: SignedInOwner, domainId: string) {
    const domain = await this.domainOf(owner, domainId);
    return (await this.deps.domains.call(getCompany, { as: ownerCallAs(owner), query: { domain_id: domain.id } }))
      .result;
  }

  async updateCompany(owner: SignedInOwner, domainId: string, body: CompanyChange) {
    const domain = await this.domainOf(owner, domainId);
    const { result } = await this.deps.domains.call(updateCompany, {
      as: ownerCallAs(owner),
      query: { domain_id: domain.id },
      body,
    });
    await this.audit(owner, 'company.updated', { type: 'company', id: result.id }, domain, body);
    return result;
  }

  async scan(owner: SignedInOwner, domainId: string) {
    const domain = await this.domainOf(owner, domainId);
    return (await this.deps.domains.call(getScan, { as: ownerCallAs(owner), params: { domainId: domain.id } })).result;
  }

  async startScan(owner: SignedInOwner, domainId: string) {
    const domain = await this.domainOf(owner, domainId);
    return (await this.deps.domains.call(startScan, { as: ownerCallAs(owner), params: { domainId: domain.id } }))
      .result;
  }

  async installCheck(owner: SignedInOwner, domainId: string) {
    const domain = await this.domainOf(owner, domainId);
    return (await this.deps.domains.call(checkInstall, { as: ownerCallAs(owner), params: { domainId: domain.id } }))
      .result;
  }

  /** The declaration from the latest scan (cookieDeclarationOf: only a completed one counts; never scanned: empty). */
  async cookieDeclaration(owner: SignedInOwner, domainId: string): Promise<CookieDeclaration> {
    const domain = await this.domainOf(owner, domainId);
    const report = await this.deps.domains
      .call(getScan, { as: ownerCallAs(owner), params: { domainId: domain.id } })
      .then(({ result }) => result)
      .catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'RESOURCE.NOT_FOUND') return undefined;
        throw err;
      });
    return cookieDeclarationOf(domain, report);
  }

  /** One page of the domain's consent records (consent-svc), newest first. */
  async records(owner: SignedInOwner, domain: Pick<DomainDetail, 'id'>, query: OwnerRecordsQuery) {
    return this.deps.consent.call(listRecords, {
      as: ownerCallAs(owner),
      query: {
        domain_id: domain.id,
        page: String(query.page),
        limit: String(query.limit),
        receipt_type: query.receipt_type,
        receipt_status: query.receipt_status,
      },
    });
  }

  /** The domain's consent figures per day (consent-svc's counters). */
  async stats(owner: SignedInOwner, domainId: string, range: { from: string; to: string }) {
    const domain = await this.domainOf(owner, domainId);
    return this.deps.consent.call(getStats, { as: ownerCallAs(owner), query: { domain_id: domain.id, ...range } });
  }

  /**
   * The domain's records as consent-svc streams them (piped on, never held): the range defaults
   * to every day from the domain's creation to today (UTC).
   */
  async exportRecords(owner: SignedInOwner, domainId: string, query: OwnerRecordsExportQuery) {
    const domain = await this.domainOf(owner, domainId);
    const from = query.from ?? domain.created_at.slice(0, 10);
    const to = query.to ?? new Date(this.deps.now()).toISOString().slice(0, 10);
    const body = await this.deps.consent.stream(exportRecords, {
      as: ownerCallAs(owner),
      query: { ...query, domain_id: domain.id, from, to },
    });
    return { domain, body };
  }

  /** In the change's keyed transaction when there is one (a retry replays the answer, never a second event). */
  async audit(
    owner: SignedInOwner,
    kind: AuditKind,
    target: { type: string; id: string },
    domain: Pick<DomainDetail, 'id' | 'hostname'>,
    body: object,
  ) {
    await inTransaction(this.deps.db, (trx: Kysely<GatewayDb>) =>
      new AuditRepository(trx).record({
        partnerId: owner.partnerId,
        kind,
        actor: ownerActor(owner),
        target,
        details: { domain_id: domain.id, hostname: domain.hostname, fields: Object.keys(body).sort() },
        at: new Date(this.deps.now()),
      }),
    );
  }
}

import { GATEWAY_ITSELF_PARTNER_ID } from '@platform/auth';
import { AppError } from '@platform/http';
import { domainInternalRoutes, domainRoutes, instanceRoutes, routeOf, type DomainOwner } from '@platform/contracts';
import type { CallAs, ServiceCaller } from '@platform/service';

const getCompany = routeOf(instanceRoutes, 'getInstanceCompany');
const listDomains = routeOf(domainRoutes, 'listDomains');
const getDomainOwner = routeOf(domainInternalRoutes, 'getDomainOwner');

/** Whom the gateway's own question names (a public caller's, for no partner): the gateway itself. */
const GATEWAY_ITSELF: CallAs = { partnerId: GATEWAY_ITSELF_PARTNER_ID, keyId: 'gateway:owner-sign-in' };

/** The customer as a request names it: exactly one of merchant_id or domain_id (the contract checked it). */
export interface CustomerQuery {
  merchant_id?: string;
  domain_id?: string;
}

/**
 * Which customer account (domains-svc's company) a partner's request names, asked of domains-svc
 * with the partner's internal token: its 404 (another partner's domain or merchant), 400 and
 * 409 MERCHANT.AMBIGUOUS come back as the same errors.
 */
export class Customers {
  constructor(private readonly domains: ServiceCaller) {}

  async companyOf(as: CallAs, query: CustomerQuery): Promise<string> {
    const customer = { merchant_id: query.merchant_id, domain_id: query.domain_id };
    const { result } = await this.domains.call(getCompany, { as, query: customer });
    return result.id;
  }

  /** The company's domains (up to 100, as the domain list shows them) for the owner console's session. */
  async domainsOf(as: CallAs, companyId: string): Promise<{ id: string; hostname: string; privacy_widget: string }[]> {
    const { result } = await this.domains.call(listDomains, {
      as,
      query: { instance_company_id: companyId, limit: '100' },
    });
    return result.map((d) => ({ id: d.id, hostname: d.hostname, privacy_widget: d.privacy_widget }));
  }

  /** Whose a domain is, by its id alone (the owner console's sign-in links); undefined when there is no such domain. */
  async ownerOf(domainId: string): Promise<DomainOwner | undefined> {
    try {
      return (await this.domains.call(getDomainOwner, { as: GATEWAY_ITSELF, params: { domainId } })).result;
    } catch (err) {
      if (err instanceof AppError && err.code === 'RESOURCE.NOT_FOUND') return undefined;
      throw err;
    }
  }
}

import type { DomainCreatedParams, DomainState } from '@platform/contracts';

/** The company as records show it (data_controller), before the per-record url. */
export interface DataControllerBase {
  name: string;
  trade_name: string | null;
  email: string | null;
  phone_number: string | null;
  country: string | null;
  state: string | null;
  city: string | null;
  address: string | null;
  address_2: string | null;
  postal_code: string | null;
}

/** A property as consent-svc keeps it (see PropertiesTable). */
export interface ProjectedProperty {
  propertyId: string;
  partnerId: string;
  domainId: string;
  hostname: string;
  subdomains: string[];
  status: string;
  merchantIds: string[];
  merchantRefs: string[];
  companyId: string;
  /** Only the fields this event knows; the rest stay as they are. */
  company: Partial<DataControllerBase>;
}

/** The merchants a domain names: partner merchant_ids and, when the event has them, the merchants' own ids. */
function merchantsOf(domain: DomainState & { merchant_links?: { merchant_id: string; id: string | null }[] }) {
  const links = domain.merchant_links ?? domain.merchants.map((merchantId) => ({ merchant_id: merchantId, id: null }));
  return {
    merchantIds: [...new Set(links.map((l) => l.merchant_id))].sort(),
    merchantRefs: [...new Set(links.flatMap((l) => (l.id ? [l.id] : [])))].sort(),
  };
}

/**
 * The one mapping from domains-svc's domain.changed to the projection: whose property, its
 * hostnames and merchants, and its company (contact and address).
 */
export function propertyFromDomainState(partnerId: string, domain: DomainState): ProjectedProperty {
  return {
    propertyId: domain.property_id,
    partnerId,
    domainId: domain.id,
    hostname: domain.hostname,
    subdomains: domain.subdomains,
    status: domain.status,
    ...merchantsOf(domain),
    companyId: domain.company_id,
    // Events of older releases carry only the company's name and the owner's e-mail.
    company: domain.company ? { ...domain.company } : { name: domain.company_name, email: domain.owner_email },
  };
}

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

/** The company's address and trade name, which only domain.created carries. */
export function companyFromDomainCreated(params: DomainCreatedParams): Partial<DataControllerBase> {
  return {
    name: params.company_name,
    trade_name: orNull(params.company_trade_name),
    email: params.account_email,
    country: orNull(params.country),
    state: orNull(params.state),
    city: orNull(params.city),
    address: orNull(params.address),
    postal_code: orNull(params.postal_code),
  };
}

export const EMPTY_COMPANY: DataControllerBase = {
  name: '',
  trade_name: null,
  email: null,
  phone_number: null,
  country: null,
  state: null,
  city: null,
  address: null,
  address_2: null,
  postal_code: null,
};

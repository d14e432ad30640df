import { notFound, validationError } from '@platform/http';
import { isUuid, subdomainHostname } from '@platform/contracts';

/** Path ids are uuids; anything else names no resource (404, never 400 or 500). */
export function assertDomainId(id: string): string {
  if (!isUuid(id)) throw notFound('domain');
  return id.toLowerCase();
}

/** Fields the partner's onboarding settings require on create: 400 listing every missing one. */
export function assertRequiredFields(body: Record<string, unknown>, required: readonly string[]) {
  const missing = required.filter((field) => {
    const value = body[field];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
  if (missing.length > 0) {
    throw validationError(
      missing.map((field) => ({ path: `body.${field}`, message: 'is required by the onboarding settings' })),
    );
  }
}

/** A subdomain body value as a full hostname under the domain, or 400. */
export function resolveSubdomain(input: string, domainHostname: string): string {
  const host = subdomainHostname(input, domainHostname);
  if (!host) throw validationError([{ path: 'body.subdomain', message: `must be a hostname under ${domainHostname}` }]);
  return host;
}

/** The path/body value of a subdomain delete: an id, a full hostname or a label. */
export function subdomainMatch(input: string, domainHostname: string): { id?: string; hostname?: string } {
  const hostname = subdomainHostname(input, domainHostname);
  return { ...(isUuid(input) ? { id: input.toLowerCase() } : {}), ...(hostname ? { hostname } : {}) };
}

import { getDomain } from 'tldts';

/**
 * The registrable domain of a property's hostname ("www.shop.example.com" → "example.com",
 * "shop.co.uk" → "shop.co.uk"), where the widget sets its choice cookie so the hostname and its
 * subdomains share one choice. Private suffixes count (github.io, ...): browsers refuse a cookie
 * on them too. An IP address, localhost or a bare public suffix has none: null (a host-only cookie).
 */
export function registrableDomain(hostname: string): string | null {
  return getDomain(hostname, { allowPrivateDomains: true, validateHostname: true }) || null;
}

/** Hostname rules shared by the create body, subdomain bodies and the service. */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** A normalised hostname, or what is wrong with the input, in words a partner can act on. */
export type HostnameParse = { host: string } | { problem: string };

/**
 * Normalises what a partner sends (`https://Shop.Example.com/path`, `shop.example.com.`) to a
 * lowercase hostname, or says why it is not a public multi-label DNS name.
 */
export function parseHostname(input: string): HostnameParse {
  const raw = input.trim();
  if (raw === '') return { problem: 'is required' };
  if (raw.length > 2048) return { problem: 'is too long' };
  if (/\s/.test(raw)) return { problem: 'must not contain spaces' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { problem: 'must be a hostname like shop.example.com or a URL like https://shop.example.com' };
  }
  if (url.username || url.password) return { problem: 'must not contain a user name or password' };
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.length === 0) return { problem: 'must contain a hostname' };
  if (host.startsWith('[') || IPV4.test(host)) return { problem: 'must be a hostname, not an IP address' };
  if (host.length > 253) return { problem: 'must be at most 253 characters long' };
  if (host === 'localhost' || host.endsWith('.localhost'))
    return { problem: 'must be a public hostname, not localhost' };
  const labels = host.split('.');
  if (labels.length < 2) return { problem: 'must have at least two labels, like example.com' };
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    return { problem: `has an invalid label "${bad}": use letters, digits and inner hyphens, at most 63 characters` };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { problem: 'must end with a top-level domain, not a number' };
  return { host };
}

/** The normalised hostname, or undefined when the input is not a public multi-label DNS name. */
export function normalizeHostname(input: string): string | undefined {
  const parsed = parseHostname(input);
  return 'host' in parsed ? parsed.host : undefined;
}

/**
 * A subdomain given as a label (`shop`) or a full hostname (`shop.example.com`) becomes the full
 * hostname; undefined when the result is invalid or does not lie under the parent hostname.
 */
export function subdomainHostname(input: string, parent: string): string | undefined {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  const isLabelOnly = trimmed !== '' && !trimmed.includes('.') && !trimmed.includes('/') && !trimmed.includes(':');
  const host = normalizeHostname(isLabelOnly ? `${trimmed}.${parent}` : trimmed);
  if (!host || host === parent || !host.endsWith(`.${parent}`)) return undefined;
  return host;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

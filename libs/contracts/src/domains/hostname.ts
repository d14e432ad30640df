/** Hostname rules shared by the create body, subdomain bodies and the service. */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Normalises what a partner sends (`https://Shop.Example.com/path`, `shop.example.com.`) to a
 * lowercase hostname, or undefined when it is not a public multi-label DNS name
 * (IP literals, localhost, single labels, bad characters).
 */
export function normalizeHostname(input: string): string | undefined {
  const raw = input.trim();
  if (raw === '' || raw.length > 2048 || /\s/.test(raw)) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.length === 0 || host.length > 253 || host.startsWith('[') || IPV4.test(host)) return undefined;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1])) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return undefined;
  return host;
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

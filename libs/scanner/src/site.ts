import { isIP } from 'node:net';
import { getPublicSuffix } from 'tough-cookie';

/** A host name as compared: lower case, no trailing dot, IPv6 without brackets. */
export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
}

/** A host name a scan may start from: a DNS name or an IP literal, nothing else (no scheme, port or path). */
export function targetHostOf(hostname: string | undefined): string | undefined {
  const host = normalHost(hostname ?? '');
  try {
    const parsed = new URL(`https://${host.includes(':') ? `[${host}]` : host}/`);
    return normalHost(parsed.hostname) === host && host.length > 0 ? host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The registrable domain (eTLD+1 from the Public Suffix List that tough-cookie ships):
 * `www.example.co.uk` -> `example.co.uk`. An IP address or a bare public suffix is itself.
 */
export function registrableDomain(host: string): string {
  const name = normalHost(host);
  if (isIP(name)) return name;
  return getPublicSuffix(name, { allowSpecialUseDomain: true }) ?? name;
}

/** First party: the host (or a cookie's domain) is on the scanned site's registrable domain. */
export function isFirstParty(host: string, targetHost: string): boolean {
  return registrableDomain(host.replace(/^\./, '')) === registrableDomain(targetHost);
}

/** A page the crawl may follow: the target host itself or one of its subdomains. */
export function isSameSite(host: string, targetHost: string): boolean {
  const name = normalHost(host);
  const target = normalHost(targetHost);
  return name === target || name.endsWith(`.${target}`);
}

/** Links to these are files, not pages: never loaded as pages. */
const NOT_PAGES =
  /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|msi|apk|iso|jpe?g|png|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|mov|avi|webm|ogg|wav|flac|docx?|xlsx?|pptx?|odt|csv|xml|json|txt|css|js|woff2?|ttf|eot)$/i;

/**
 * The page URLs worth following from these links: absolute http(s), same site as the target,
 * no fragment, no file downloads, each once, in document order.
 */
export function pageLinks(hrefs: readonly string[], base: string, targetHost: string): string[] {
  const out = new Set<string>();
  for (const href of hrefs) {
    let url: URL;
    try {
      url = new URL(href.trim(), base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (url.username || url.password || !isSameSite(url.hostname, targetHost) || NOT_PAGES.test(url.pathname)) continue;
    url.hash = '';
    out.add(url.href);
  }
  return [...out];
}

/** An http(s) URL resolved against a base, or undefined (data:, javascript:, about:, malformed). */
export function httpUrl(raw: string, base: string): URL | undefined {
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

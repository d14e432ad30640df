import { isIP } from 'node:net';

/**
 * One curl `--connect-to` entry: a request to a host (and port) matching `host`/`port` connects
 * to `toHost`/`toPort` instead. The URL, the Host header, TLS SNI and certificate validation keep
 * the original name; only the TCP destination moves, and it is checked by the address policy
 * like any other (a mapping cannot reach an address the policy refuses).
 */
export interface ConnectToRule {
  /** '' or '*': any host; '*.example.com': any subdomain of example.com (not example.com itself); else the exact name. */
  host: string;
  /** null: any port. */
  port: number | null;
  /** '' keeps the request's host. An IPv6 address is kept without brackets. */
  toHost: string;
  /** null keeps the request's port. */
  toPort: number | null;
}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/i;

function parsePort(text: string, entry: string, side: string): number | null {
  if (text === '') return null;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65_535))
    throw new Error(`connect-to "${entry}": ${side} port "${text}" is not a port number (1-65535)`);
  return port;
}

function parseFromHost(text: string, entry: string): string {
  const host = text.toLowerCase();
  if (host === '' || host === '*') return '*';
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (!HOST_NAME.test(name) && isIP(name) === 0)
    throw new Error(`connect-to "${entry}": "${text}" is not a host name, "*" or "*.suffix"`);
  return host;
}

function parseToHost(text: string, entry: string): string {
  const host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (host === '') return '';
  if (isIP(host) === 0 && !HOST_NAME.test(host))
    throw new Error(`connect-to "${entry}": "${text}" is not an address or host name`);
  return host.toLowerCase();
}

/**
 * curl's `--connect-to` form, comma separated: `HOST:PORT:ADDRESS:PORT[,...]`, e.g.
 * `*.site.test:443:127.0.0.1:8443,www.google-analytics.com::127.0.0.1:8080`. HOST may be empty or
 * `*` (any host) or `*.suffix`; an empty PORT matches any port; an empty ADDRESS or target PORT
 * keeps the request's. IPv6 targets go in brackets (`[::1]`). Throws an Error naming the entry
 * when one is malformed; an empty text is no rules.
 */
export function parseConnectTo(text: string): ConnectToRule[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      // The target address may be a bracketed IPv6 literal, which has colons of its own.
      const m = /^([^:[\]]*):([^:]*):(\[[^\]]*\]|[^:[\]]*):([^:]*)$/.exec(entry);
      if (!m) throw new Error(`connect-to "${entry}" is not HOST:PORT:ADDRESS:PORT`);
      return {
        host: parseFromHost(m[1], entry),
        port: parsePort(m[2], entry, 'the'),
        toHost: parseToHost(m[3], entry),
        toPort: parsePort(m[4], entry, 'the target'),
      };
    });
}

function hostMatches(pattern: string, hostname: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1));
  return hostname === pattern;
}

/** Where a request to hostname:port really connects: the first matching rule's target, else the host itself. */
export function connectTarget(
  rules: readonly ConnectToRule[],
  hostname: string,
  port: number,
): { host: string; port: number } {
  const name = hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
  const rule = rules.find((r) => hostMatches(r.host, name) && (r.port === null || r.port === port));
  if (!rule) return { host: name, port };
  return { host: rule.toHost || name, port: rule.toPort ?? port };
}

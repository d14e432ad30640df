import { isIP } from 'node:net';
import { addressVerdict, type AddressPolicy } from './address';
import type { Resolver } from './connect';

export interface TargetPolicy extends AddressPolicy {
  /** Refuse plain http (production setting for webhook endpoints). */
  httpsOnly?: boolean;
  /** Used to look a host name up; a name that does not resolve now is accepted (it may later). */
  resolve: Resolver;
  /** How long the lookup may take before the name is accepted unchecked. Default 2000. */
  resolveTimeoutMs?: number;
}

/** Names that always mean this machine or its network, whatever a resolver says. */
const LOCAL_NAMES = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)$/i;

/**
 * Why a URL may not be registered as a target, or undefined when it may: the scheme, then the
 * host. An IP literal (WHATWG URL has already turned decimal, octal and hex forms into dotted
 * IPv4, and IPv6 into its canonical form) must pass addressVerdict; a name must not be a local
 * one, and every address it resolves to now must pass. This is the early, friendly refusal; the
 * outbound client checks again on every connection, where the decision really holds.
 */
export async function targetProblem(raw: string, policy: TargetPolicy): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && (policy.httpsOnly || url.protocol !== 'http:'))
    return policy.httpsOnly ? 'must use https' : 'must use http or https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // WHATWG URL reads 2130706433, 0177.0.0.1 and 0x7f.1 as 127.0.0.1: refuse such spellings outright.
  const written = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]*)/i.exec(raw.trim())?.[1]?.toLowerCase();
  if (isIP(host) === 4 && written !== host) return 'must write an IPv4 address in dotted decimal form';
  if (isIP(host)) {
    const verdict = addressVerdict(host, policy);
    return verdict.allowed ? undefined : `points to an address that may not be contacted (${verdict.range})`;
  }
  if (/^[\d.]+$/.test(host) || /^0x/i.test(host)) return 'is not a valid host';
  if (LOCAL_NAMES.test(host.replace(/\.$/, '')) && !(policy.allowLoopback && /^localhost\.?$/i.test(host)))
    return 'points to a local host name';
  let addresses: { address: string }[];
  try {
    addresses = await withDeadline(policy.resolve(host), policy.resolveTimeoutMs ?? 2_000);
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const verdict = addressVerdict(address, policy);
    if (!verdict.allowed) return 'resolves to an address that may not be contacted';
  }
  return undefined;
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup deadline')), ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Fixed answers for some host names, like curl's --resolve ("name:address" pairs), the rest
 * from `fallback`: for split-horizon setups, and for tests that must make a name answer a
 * forbidden address without any packet leaving the machine.
 */
export function overridingResolver(overrides: Record<string, string>, fallback: Resolver): Resolver {
  const fixed = new Map(Object.entries(overrides).map(([name, address]) => [name.toLowerCase(), address]));
  return async (hostname) => {
    const address = fixed.get(hostname.toLowerCase().replace(/\.$/, ''));
    return address ? [{ address, family: isIP(address) }] : fallback(hostname);
  };
}

/** "name:address,name2:address2" (IPv6 addresses in brackets: "name:[::1]") into a map; throws on a malformed pair. */
export function parseResolveOverrides(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([^:\s]+):\[?([^\]\s]+)\]?$/.exec(pair);
    if (!m || isIP(m[2]) === 0) throw new Error(`"${pair}" is not name:address`);
    out[m[1].toLowerCase()] = m[2];
  }
  return out;
}

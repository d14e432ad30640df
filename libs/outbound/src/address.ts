import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's range name ('unicast', 'private', 'linkLocal' ...), or one of ours, e.g. 'nat64(private)'. */
  range: string;
}

export interface AddressPolicy {
  /** Development and tests only: allow 127.0.0.0/8 and ::1 (and ::ffff:127.x.y.z). Default false. */
  allowLoopback?: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Whether an outbound request may connect to this address. The rule is an allow-list: a public
 * unicast address, nothing else (loopback too when `allowLoopback` is set for development).
 *
 * Decisions:
 * - Only canonical textual addresses count (what `net.isIP` accepts and `net.connect` will use
 *   as is, without a lookup): `0177.0.0.1`, `0x7f.1`, `2130706433` are refused as 'invalid'. (A
 *   URL's host is already normalised by WHATWG URL: `http://0x7f.1/` has host `127.0.0.1`.)
 * - IPv4: allowed only when ipaddr.js's `range()` is 'unicast'. Refused by that: unspecified and
 *   "this network" 0.0.0.0/8, loopback 127/8, private 10/8, 172.16/12, 192.168/16, link-local
 *   169.254/16 (incl. the cloud metadata address 169.254.169.254), CGNAT 100.64/10, multicast
 *   224/4, broadcast 255.255.255.255, reserved 240/4, IETF protocol assignments 192.0.0/24,
 *   documentation 192.0.2/24, 198.51.100/24, 203.0.113/24, benchmarking 198.18/15, the old 6to4
 *   relay 192.88.99/24, and the AS112/AMT anycast services (never a webhook or a site).
 * - IPv6 with a zone id (`fe80::1%eth0`) is refused: a zone only makes sense on a local link.
 * - IPv4 inside IPv6 is judged by the IPv4 it reaches: IPv4-mapped ::ffff:a.b.c.d (the kernel
 *   connects to a.b.c.d), NAT64 64:ff9b::/96 (RFC 6052; on an IPv6-only network DNS64 gives every
 *   IPv4-only site such an address, so a public embedded IPv4 stays allowed) and 6to4 2002::/16
 *   (embedded a.b.c.d in bits 16-47). Loopback through NAT64 or 6to4 is never allowed.
 * - Refused outright, whatever they embed: local-use NAT64 64:ff9b:1::/48 (RFC 8215, local by
 *   definition), Teredo 2001::/32, IPv4-translated ::ffff:0:a.b.c.d (RFC 6145), IPv4-compatible
 *   ::a.b.c.d (deprecated, ::/96).
 * - Other IPv6: allowed only when ipaddr.js says 'unicast' AND the address is in 2000::/3, the
 *   only block IANA allocates for global unicast. Refused by that: unspecified ::, loopback ::1,
 *   unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8,
 *   discard 100::/64, documentation 2001:db8::/32 and 3fff::/20, the IETF 2001::/23 block
 *   (benchmarking, ORCHID ...), segment routing 5f00::/16, and everything unallocated.
 */
export function addressVerdict(address: string, policy: AddressPolicy = {}): AddressVerdict {
  if (isIP(address) === 0 || address.includes('%')) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4'
    ? ipv4Verdict(parsed as ipaddr.IPv4, policy)
    : ipv6Verdict(parsed as ipaddr.IPv6, policy);
}

function ipv4Verdict(address: ipaddr.IPv4, policy: AddressPolicy): AddressVerdict {
  const range = address.range();
  return { allowed: range === 'unicast' || (range === 'loopback' && policy.allowLoopback === true), range };
}

function ipv6Verdict(address: ipaddr.IPv6, policy: AddressPolicy): AddressVerdict {
  const range = address.range();
  if (range === 'ipv4Mapped') return ipv4Verdict(address.toIPv4Address(), policy);
  const embedded = embeddedIPv4(address, range);
  if (embedded) {
    const inner = ipv4Verdict(embedded, {});
    return { allowed: inner.allowed, range: `${range === '6to4' ? '6to4' : 'nat64'}(${inner.range})` };
  }
  if (range === 'loopback') return { allowed: policy.allowLoopback === true, range };
  if (range !== 'unicast') return { allowed: false, range };
  if (!address.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: 'notGlobalUnicast' };
  return { allowed: true, range };
}

/** The IPv4 address a NAT64 (well-known prefix) or 6to4 address reaches; undefined for every other form. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (range === 'rfc6052' && address.match(NAT64_WELL_KNOWN)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

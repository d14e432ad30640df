import ipaddr from 'ipaddr.js';

/**
 * Whether an outbound request may connect to this address. Only public unicast addresses are
 * allowed (ipaddr.js's 'unicast' range, after IPv4-mapped IPv6 is read as its IPv4): that refuses
 * loopback, private (10/8, 172.16/12, 192.168/16), link-local incl. the cloud metadata address
 * 169.254.169.254, CGNAT 100.64/10, multicast, broadcast, unspecified, reserved and documentation
 * ranges, IPv6 unique-local fc00::/7, link-local fe80::/10, and the IPv6 forms that embed an IPv4
 * address a proxy would reach (6to4 2002::/16, NAT64 64:ff9b::/96, Teredo, SIIT). Loopback is
 * allowed only when the caller says so (development and tests).
 */
export function addressVerdict(address: string, options: { allowLoopback?: boolean } = {}): { allowed: boolean; range: string } {
  if (!ipaddr.isValid(address)) return { allowed: false, range: 'invalid' };
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return { allowed: true, range };
  if (range === 'loopback' && options.allowLoopback) return { allowed: true, range };
  return { allowed: false, range };
}

/**
 * Outbound HTTP to URLs that partners and their customers control (webhook endpoints, sites to
 * scan), guarded against SSRF. One client per worker:
 *
 *   const outbound = createOutboundClient({ maxRedirects: 0, totalTimeoutMs: 10_000 });
 *   const res = await outbound.request({ method: 'POST', url, headers, body });
 *   // res: { status, headers, body (Buffer, at most maxResponseBytes), truncated, durationMs, address, url }
 *   // failures reject with OutboundError; err.kind is what a delivery log shows
 *   await outbound.close();
 *
 * Only public unicast addresses are contacted (addressVerdict lists what is refused and why);
 * `allowLoopback: true` is for development and tests only, like `connectTo` (curl --connect-to
 * rules from parseConnectTo, e.g. `*.site.test::127.0.0.1:8080`; a mapped target is still checked).
 */
export { addressVerdict, type AddressPolicy, type AddressVerdict } from './address';
export {
  createOutboundClient,
  type OutboundClient,
  type OutboundOptions,
  type OutboundRequest,
  type OutboundResponse,
} from './client';
export { systemResolver, type Resolver } from './connect';
export { connectTarget, parseConnectTo, type ConnectToRule } from './connect-to';
export { OutboundError, type OutboundErrorKind } from './errors';
export { overridingResolver, parseResolveOverrides, targetProblem, type TargetPolicy } from './target';

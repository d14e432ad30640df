import { lookup } from 'node:dns/promises';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import { addressVerdict, type AddressPolicy } from './address';
import { connectTarget, type ConnectToRule } from './connect-to';
import { classify, OutboundError } from './errors';

/** Every address a host name resolves to; `family` is 4 or 6. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** The system's resolver (getaddrinfo, so /etc/hosts counts), every address in its order. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface PinnedConnectOptions {
  resolve: Resolver;
  policy: AddressPolicy;
  /** Deadline for resolution, TCP connect and TLS handshake together. */
  connectTimeoutMs: number;
  /** Trusted CA certificates instead of Node's bundled roots (private CAs, tests). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** curl --connect-to rules: where a host:port really connects (that target is what gets checked). */
  connectTo?: readonly ConnectToRule[];
  /** Called with the checked address once the connection to it is up. */
  onConnected: (address: string) => void;
}

/**
 * The address a host may be connected to: an IP literal as it is, a name resolved once. Every
 * resolved address must pass the policy, not only the one used: a name that also answers a
 * forbidden address is treated as hostile (a rebinding name rotates it in on a later lookup).
 */
async function checkedAddress(hostname: string, resolve: Resolver, policy: AddressPolicy): Promise<string> {
  const addresses = isIP(hostname)
    ? [{ address: hostname }]
    : await resolve(hostname).catch((err: unknown) => {
        throw new OutboundError(
          'dns',
          `${hostname} did not resolve: ${err instanceof Error ? err.message : String(err)}`,
          { cause: err },
        );
      });
  if (addresses.length === 0) throw new OutboundError('dns', `${hostname} has no address`);
  for (const { address } of addresses) {
    const verdict = addressVerdict(address, policy);
    if (!verdict.allowed)
      throw new OutboundError(
        'blocked_address',
        `${hostname} is ${address} (${verdict.range}), which may not be contacted`,
      );
  }
  return addresses[0].address;
}

/**
 * An undici `connect` function that resolves and checks the host itself and then connects to the
 * checked address, never to the name: nothing resolves the name a second time between the check
 * and the connect (DNS rebinding). TLS keeps the host name for SNI and certificate validation.
 * One deadline covers resolution, TCP connect and TLS handshake.
 */
export function pinnedConnector(options: PinnedConnectOptions): buildConnector.connector {
  return ({ hostname, protocol, port }, callback) => {
    let socket: Socket | undefined;
    let settled = false;
    const settle = (err: Error | null, connected?: Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err || !connected) {
        socket?.destroy();
        // Classified here, where it is known to be the connection's failure (tls, dns, connect...).
        return callback(
          err
            ? classify(err, { deadlinePassed: false, connected: false })
            : new OutboundError('connect', `no connection to ${hostname}`),
          null,
        );
      }
      callback(null, connected);
    };
    const timer = setTimeout(() => {
      settle(
        new OutboundError(
          'timeout',
          `no connection to ${hostname} within the connect deadline (${options.connectTimeoutMs} ms)${socket ? '' : ': still resolving'}`,
        ),
      );
    }, options.connectTimeoutMs);

    const https = protocol === 'https:';
    // A connect-to rule moves only the TCP destination; TLS still names and verifies `hostname`.
    const destination = connectTarget(options.connectTo ?? [], hostname, Number(port) || (https ? 443 : 80));
    const open = (address: string) => {
      if (!settled) socket = openPinned({ address, port: destination.port, hostname, https }, options, settle);
    };
    // A URL naming a refused address literally stays refused, even when a rule maps it elsewhere.
    const literal = hostname.replace(/^\[|\]$/g, '');
    const written = isIP(literal) ? addressVerdict(literal, options.policy) : undefined;
    if (written && !written.allowed)
      return settle(new OutboundError('blocked_address', `${literal} (${written.range}) may not be contacted`));
    checkedAddress(destination.host, options.resolve, options.policy)
      .then(open) // net.connect and tls.connect can throw synchronously (bad options): that rejects too
      .catch((err: unknown) => settle(err instanceof Error ? err : new OutboundError('connect', String(err))));
  };
}

/**
 * Connects to the checked address (TLS still naming and verifying the host) and settles once the
 * connection is up, after checking that the kernel's view of the peer is an allowed address.
 */
function openPinned(
  to: { address: string; port: number; hostname: string; https: boolean },
  options: Pick<PinnedConnectOptions, 'ca' | 'policy' | 'onConnected'>,
  settle: (err: Error | null, connected?: Socket) => void,
): Socket {
  const { address, hostname, https } = to;
  const target = { host: address, port: to.port };
  // No SNI for an IP literal (not allowed by RFC 6066); the certificate is then checked against the IP.
  const servername = isIP(hostname) ? undefined : hostname;
  const socket = https
    ? tlsConnect({ ...target, servername, ca: options.ca, ALPNProtocols: ['http/1.1'] })
    : netConnect(target);
  socket.setNoDelay(true);
  socket.once(https ? 'secureConnect' : 'connect', () => {
    // The kernel's view of the peer must be the address that was checked.
    const remote = socket.remoteAddress;
    if (remote === undefined || !addressVerdict(remote, options.policy).allowed) {
      return settle(
        new OutboundError(
          'blocked_address',
          `${hostname}: the connected peer ${remote ?? '(unknown)'} may not be contacted`,
        ),
      );
    }
    options.onConnected(address);
    settle(null, socket);
  });
  socket.once('error', (err) => settle(err));
  return socket;
}

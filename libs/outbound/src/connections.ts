import { Client, Pool, type Dispatcher } from 'undici';
import type { AddressPolicy } from './address';
import { pinnedConnector, type PinnedConnectOptions, type Resolver } from './connect';
import type { ConnectToRule } from './connect-to';

export interface ConnectionSettings {
  policy: AddressPolicy;
  resolve: Resolver;
  connectTimeoutMs: number;
  ca?: PinnedConnectOptions['ca'];
  connectTo?: readonly ConnectToRule[];
  /** Above 0: connections to an origin are kept this long and reused; 0: a connection per request. */
  keepAliveMs: number;
}

/** What one hop knows of its connection: whether it was made (a later failure is the answer's) and to which checked address. */
export interface HopState {
  connected: boolean;
  address: string;
}

export interface Connection {
  dispatcher: Dispatcher;
  /** The checked address the connection went to. */
  address(): string;
  /** Called once the hop is over (its body read or abandoned). */
  done(): Promise<void>;
}

export interface Connections {
  open(url: URL, state: HopState): Connection;
  /** Ends every connection, kept or in flight. */
  close(): Promise<void>;
}

const MAX_POOLS = 1_000;

/** Connections for the outbound client: pinned to the checked address, kept per origin (keepAliveMs) or one per request. */
export function createConnections(settings: ConnectionSettings): Connections {
  const inFlight = new Set<Client>();
  /** Kept connections per origin, least recently used first (see keepAliveMs). */
  const pools = new Map<string, { pool: Pool; address: string }>();
  const connector = (onConnected: (address: string) => void) =>
    pinnedConnector({
      resolve: settings.resolve,
      policy: settings.policy,
      connectTimeoutMs: settings.connectTimeoutMs,
      ca: settings.ca,
      connectTo: settings.connectTo,
      onConnected,
    });

  /** The origin's pool of kept connections; connect failures are classified by the connector, so any later failure is the answer's. */
  function pooled(url: URL, state: HopState): Connection {
    let entry = pools.get(url.origin);
    if (entry) pools.delete(url.origin);
    else {
      const created: { pool: Pool; address: string } = { pool: undefined as unknown as Pool, address: '' };
      created.pool = new Pool(url.origin, {
        keepAliveTimeout: settings.keepAliveMs,
        keepAliveMaxTimeout: settings.keepAliveMs,
        connect: connector((address) => (created.address = address)),
      });
      entry = created;
      if (pools.size >= MAX_POOLS) {
        const [oldest, { pool }] = pools.entries().next().value!;
        pools.delete(oldest);
        void pool.close().catch(() => undefined);
      }
    }
    pools.set(url.origin, entry);
    state.connected = true;
    const current = entry;
    return { dispatcher: current.pool, address: () => current.address, done: async () => undefined };
  }

  /** A connection of its own, so the address it reports is exactly the one it used. */
  function oneShot(url: URL, state: HopState): Connection {
    const client = new Client(url.origin, {
      pipelining: 0,
      connect: connector((address) => Object.assign(state, { connected: true, address })),
    });
    inFlight.add(client);
    return {
      dispatcher: client,
      address: () => state.address,
      done: async () => {
        inFlight.delete(client);
        await client.destroy().catch(() => undefined);
      },
    };
  }

  return {
    open: (url, state) => (settings.keepAliveMs > 0 ? pooled(url, state) : oneShot(url, state)),
    async close() {
      const kept = [...pools.values()].map(({ pool }) => pool.destroy().catch(() => undefined));
      pools.clear();
      await Promise.all([...[...inFlight].map((client) => client.destroy().catch(() => undefined)), ...kept]);
    },
  };
}

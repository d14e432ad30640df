import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { keyMatches, prefixOf } from './api-key';

/** A key record as the gateway keeps it in memory (the hash, never the key). */
export interface KeyRecord {
  id: string;
  partnerId: string;
  prefix: string;
  secretHash: Buffer;
  permissions: string[];
  requiredFields: string[];
  /** The partner's name (owner e-mails sign with it). */
  partnerName?: string;
  /** The partner's default product and price list codes. */
  defaults?: { product?: string; priceList?: string };
  allowedIp: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export type KeyLookup = (prefix: string) => Promise<KeyRecord | undefined>;

export type RefusalReason = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'ip_not_allowed';

export type AuthResult = { ok: true; key: KeyRecord } | { ok: false; reason: RefusalReason };

/** Compares a presented key with a stored digest in constant time. */
export type KeyComparer = (presented: string, storedHash: Buffer) => boolean;

interface CacheEntry {
  record: KeyRecord | undefined;
  ipList?: BlockList;
  until: number;
}

/** Unknown prefixes are remembered only briefly, so a key created elsewhere works almost at once. */
const NEGATIVE_TTL_MS = 2_000;
const MAX_ENTRIES = 100_000;

/** Stands in for the stored digest when there is no record: no key hashes to it. */
const NO_KEY_HASH = randomBytes(32);

/** IPv4 clients on a dual-stack socket appear as ::ffff:a.b.c.d. */
const normaliseIp = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

function ipListFor(allowedIp: string): BlockList {
  const list = new BlockList();
  const ip = normaliseIp(allowedIp);
  list.addAddress(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

/** Whether the client address is allowed: any address when the key is not limited to one. */
function ipAllows(ipList: BlockList | undefined, clientIp: string): boolean {
  const ip = normaliseIp(clientIp);
  return !ipList || ipList.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Verifies presented API keys. Records are cached by prefix so the hot path makes no database
 * call; the cache is only used while `caching` is on, which the revocation listener switches on
 * when it is subscribed and off when it loses its connection, so a revocation is never missed.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<KeyRecord | undefined>>();
  /** Bumped on every invalidation: a lookup that raced with one is not cached. */
  private generation = 0;
  private caching = false;

  constructor(
    private readonly lookup: KeyLookup,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly compare: KeyComparer = keyMatches,
  ) {}

  /** Called by the listener: on when subscribed to key changes, off (and cleared) when not. */
  setCaching(on: boolean) {
    this.caching = on;
    this.invalidateAll();
  }

  invalidate(prefix: string) {
    this.generation++;
    this.cache.delete(prefix);
    this.inFlight.delete(prefix);
  }

  invalidateAll() {
    this.generation++;
    this.cache.clear();
    this.inFlight.clear();
  }

  /**
   * Every presented key costs the same work whatever its state: a malformed key or an unknown
   * prefix is still hashed and compared (with NO_KEY_HASH), and every check runs before the first
   * failing one is named, so the time to answer tells nothing about the key.
   */
  async authenticate(presented: string, clientIp: string): Promise<AuthResult> {
    const prefix = prefixOf(presented);
    const entry = prefix ? await this.entryFor(prefix) : undefined;
    const record = entry?.record;
    const matches = this.compare(presented, record?.secretHash ?? NO_KEY_HASH);
    const expired = !!record?.expiresAt && record.expiresAt.getTime() <= this.now();
    const ipAllowed = ipAllows(entry?.ipList, clientIp);
    if (!entry) return { ok: false, reason: 'malformed' };
    if (!record || !matches) return { ok: false, reason: 'unknown' };
    if (record.revokedAt) return { ok: false, reason: 'revoked' };
    if (expired) return { ok: false, reason: 'expired' };
    if (!ipAllowed) return { ok: false, reason: 'ip_not_allowed' };
    return { ok: true, key: record };
  }

  private async entryFor(prefix: string): Promise<CacheEntry> {
    const now = this.now();
    const cached = this.cache.get(prefix);
    if (cached && cached.until > now) return cached;
    const generation = this.generation;
    const record = await this.load(prefix);
    const entry: CacheEntry = {
      record,
      ipList: record?.allowedIp ? ipListFor(record.allowedIp) : undefined,
      until: now + (record ? this.ttlMs : Math.min(this.ttlMs, NEGATIVE_TTL_MS)),
    };
    if (this.caching && generation === this.generation) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(prefix, entry);
    }
    return entry;
  }

  /** Concurrent first requests with one key share a single query. */
  private load(prefix: string): Promise<KeyRecord | undefined> {
    let pending = this.inFlight.get(prefix);
    if (!pending) {
      const started = this.lookup(prefix).finally(() => {
        if (this.inFlight.get(prefix) === started) this.inFlight.delete(prefix);
      });
      pending = started;
      this.inFlight.set(prefix, started);
    }
    return pending;
  }
}

import { afterCommit, type Kysely } from '@platform/db';
import { ALL_SESSIONS, type GatewayDb } from '../db/tables';
import type { SignedInUser } from './signed-in-user';

/** A live session as read from the database, with the two times that bound how long a copy may answer. */
export interface LoadedSession {
  user: SignedInUser;
  /** The session's last_seen_at after this read (moved to now when the read touched it). */
  lastSeenAt: number;
  expiresAt: number;
}

export interface SessionCacheSettings {
  /** The session idle timeout (SESSION_IDLE_TIMEOUT_MS). */
  idleMs: number;
  /** How stale last_seen_at may get before a request moves it (the database path's touch interval). */
  touchMs: number;
  maxEntries?: number;
}

/** Where the answers came from: what an operator (and a test) can tell the cache by. */
export type SessionSource = 'memory' | 'database';

const MAX_ENTRIES = 10_000;

/**
 * Resolved sessions by token hash, so most requests of a session make no database call. A copy
 * answers only while caching is on (the gateway_sessions LISTEN is up: every change of a session,
 * its user or its partner NOTIFYs at commit and drops the copies it names), and only while its
 * session is live by the copy's own times and was touched less than `touchMs` ago: past that the
 * database path re-reads and touches it, so idle timeouts stay exact to the touch interval.
 * Unknown tokens are never remembered.
 */
export class SessionCache {
  private readonly entries = new Map<string, LoadedSession>();
  /** Token hashes by the session, user and partner ids their copies name (what a NOTIFY names). */
  private readonly byId = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<LoadedSession | undefined>>();
  /** Bumped on every invalidation: a read that raced with one is not kept. */
  private generation = 0;
  private caching = false;
  private readonly windowMs: number;
  private readonly maxEntries: number;

  constructor(
    settings: SessionCacheSettings,
    private readonly onResolve: (source: SessionSource) => void = () => undefined,
  ) {
    this.windowMs = Math.min(settings.idleMs, settings.touchMs);
    this.maxEntries = settings.maxEntries ?? MAX_ENTRIES;
  }

  get size() {
    return this.entries.size;
  }

  /** Called by the listener: on when subscribed to session changes, off (and cleared) when not. */
  setCaching(on: boolean) {
    this.caching = on;
    this.invalidateAll();
  }

  /** Drops the copies of the session, user or partner with this id (ALL_SESSIONS: every copy). */
  invalidate(id: string) {
    if (id === ALL_SESSIONS) return this.invalidateAll();
    this.generation++;
    for (const key of this.byId.get(id) ?? []) this.remove(key);
    // A read under way may have started before the change: later requests must not join it.
    this.inFlight.clear();
  }

  invalidateAll() {
    this.generation++;
    this.entries.clear();
    this.byId.clear();
    this.inFlight.clear();
  }

  /** The session of the token hash: its copy when that may still answer at `now`, else `load`'s answer (kept when it may). */
  async resolve(
    tokenHash: Buffer,
    now: number,
    load: () => Promise<LoadedSession | undefined>,
  ): Promise<SignedInUser | undefined> {
    const key = tokenHash.toString('base64');
    const cached = this.entries.get(key);
    if (cached && this.usable(cached, now)) {
      this.onResolve('memory');
      return cached.user;
    }
    if (cached) this.remove(key);
    const generation = this.generation;
    const loaded = await this.load(key, load);
    this.onResolve('database');
    if (loaded && this.caching && generation === this.generation && this.usable(loaded, now)) this.add(key, loaded);
    return loaded?.user;
  }

  private usable(session: LoadedSession, now: number) {
    return now < session.expiresAt && now - session.lastSeenAt < this.windowMs;
  }

  /** Concurrent first requests of one session share a single read (an invalidation lets later ones read afresh). */
  private load(key: string, load: () => Promise<LoadedSession | undefined>) {
    let pending = this.inFlight.get(key);
    if (!pending) {
      const started = load().finally(() => {
        if (this.inFlight.get(key) === started) this.inFlight.delete(key);
      });
      pending = started;
      this.inFlight.set(key, started);
    }
    return pending;
  }

  private add(key: string, session: LoadedSession) {
    this.remove(key);
    // The oldest copy makes room (a Map iterates in insertion order).
    if (this.entries.size >= this.maxEntries) this.remove(this.entries.keys().next().value as string);
    this.entries.set(key, session);
    for (const id of idsOf(session.user)) {
      let keys = this.byId.get(id);
      if (!keys) this.byId.set(id, (keys = new Set()));
      keys.add(key);
    }
  }

  private remove(key: string) {
    const session = this.entries.get(key);
    if (!session) return;
    this.entries.delete(key);
    for (const id of idsOf(session.user)) {
      const keys = this.byId.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byId.delete(id);
    }
  }
}

const idsOf = (user: SignedInUser) => [user.sessionId, user.userId, user.partnerId];

/** Drops a session, user or partner's copies on this gateway. */
export type DropSessions = (id: string) => void;

/** What a service calls after writing a session, user or partner (IdentityService.sessionsChanged). */
export type SessionsChanged = (db: Kysely<GatewayDb>, id: string) => Promise<void>;

/**
 * After a write to a session, user or partner: this gateway drops its copies once the write has
 * committed (before the writer answers), so the writer's next request sees it without waiting for
 * the NOTIFY that tells every gateway. `db` is the write's transaction, or the pool when it was
 * one statement (then it has committed already).
 */
export async function dropSessionsAtCommit(db: Kysely<GatewayDb>, drop: DropSessions, id: string): Promise<void> {
  if (!(await afterCommit(db, () => drop(id)))) drop(id);
}

import type { Store } from './peer-types';
import { WindowStore } from './fetch-limiter';

/** A session the proxy started for a client, as kept in the ledger. */
export interface LedgerEntry {
  /** Client address (see `trustProxy`). */
  client: string;
  sessionId: string;
}

/**
 * The proxy's shared state besides rate counters: which sessions each client has running, when each must
 * end, and which have ended (so their tokens only read status). Every method is atomic where it matters:
 * `reserve` and `due` are safe with several proxy instances on one store.
 */
export interface SessionLedger {
  /** Adds `member` to the client's running set unless it already holds `max` unexpired members. Times in ms since epoch. */
  reserve(client: string, member: string, max: number, expiresAt: number): Promise<boolean>;
  /** Renames a reservation (e.g. to the session id once known), with a new expiry. */
  rename(client: string, from: string, to: string, expiresAt: number): Promise<void>;
  /** Drops `member` from the client's running set. */
  release(client: string, member: string): Promise<void>;
  /** The client's unexpired members. */
  members(client: string): Promise<string[]>;
  /** Remembers that `entry` must be ended at `at` (ms since epoch). */
  schedule(entry: LedgerEntry, at: number): Promise<void>;
  /** Forgets the deadline of `entry`. */
  unschedule(entry: LedgerEntry): Promise<void>;
  /** Takes (removes and returns) up to 50 entries whose deadline is at or before `now`: each is handed to one caller only. */
  due(now: number): Promise<LedgerEntry[]>;
  /** Marks a session ended for `ttlMs`, with why (`ended`, `max_duration`, `orphaned`). */
  markEnded(sessionId: string, reason: string, ttlMs: number): Promise<void>;
  /** Why the session ended, or undefined while it may still run. */
  endedReason(sessionId: string): Promise<string | undefined>;
}

/** Where the proxy keeps its counters: rate-limit stores (express-rate-limit `Store`s) and the session ledger. */
export interface ProxyStore {
  /** A fresh rate-limit store for one limit (`ip`, `session`, `create`). */
  limitStore(name: string): Store;
  ledger: SessionLedger;
}

/** The default store: this process's memory (each proxy instance counts on its own). */
export function memoryStore(): ProxyStore {
  return { limitStore: () => new WindowStore(), ledger: memoryLedger() };
}

function memoryLedger(): SessionLedger {
  const running = new Map<string, Map<string, number>>();
  const deadlines = new Map<string, { entry: LedgerEntry; at: number }>();
  const ended = new Map<string, { reason: string; until: number }>();
  const live = (client: string) => {
    const set = running.get(client) ?? new Map<string, number>();
    const now = Date.now();
    for (const [m, exp] of set) if (exp <= now) set.delete(m);
    if (set.size === 0) running.delete(client);
    return set;
  };
  const key = (e: LedgerEntry) => JSON.stringify([e.client, e.sessionId]);
  return {
    async reserve(client, member, max, expiresAt) {
      const set = live(client);
      if (set.size >= max && !set.has(member)) return false;
      set.set(member, expiresAt);
      running.set(client, set);
      return true;
    },
    async rename(client, from, to, expiresAt) {
      const set = live(client);
      set.delete(from);
      set.set(to, expiresAt);
      running.set(client, set);
    },
    async release(client, member) {
      live(client).delete(member);
      if (running.get(client)?.size === 0) running.delete(client);
    },
    async members(client) {
      return [...live(client).keys()];
    },
    async schedule(entry, at) {
      deadlines.set(key(entry), { entry, at });
    },
    async unschedule(entry) {
      deadlines.delete(key(entry));
    },
    async due(now) {
      const out: LedgerEntry[] = [];
      for (const [k, d] of deadlines) {
        if (out.length >= 50) break;
        if (d.at <= now) {
          deadlines.delete(k);
          out.push(d.entry);
        }
      }
      return out;
    },
    async markEnded(sessionId, reason, ttlMs) {
      const now = Date.now();
      if (ended.size > 50_000) for (const [k, v] of ended) if (v.until <= now) ended.delete(k);
      ended.set(sessionId, { reason, until: now + ttlMs });
    },
    async endedReason(sessionId) {
      const e = ended.get(sessionId);
      if (!e) return undefined;
      if (e.until <= Date.now()) {
        ended.delete(sessionId);
        return undefined;
      }
      return e.reason;
    },
  };
}

import type { Store } from '../peer-types';
import { WindowStore } from '../adapters/fetch/limiter';
import { memorySpendLedger, type SpendLedger } from '../ops/spend-ledger';

/**
 * A session the proxy started for a client, as kept in the ledger.
 * @public
 */
export interface LedgerEntry {
  /** Client address (see `trustProxy`). */
  client: string;
  sessionId: string;
}

/**
 * Limits checked by {@link SessionLedger.reserve}, all at once. Counts are sessions; windows and times are ms.
 * @public
 */
export interface ReserveLimits {
  /** Sessions the client may have running at once. */
  maxConcurrent: number;
  /** Sessions the client may start per `createWindowMs`. */
  createsPerWindow: number;
  createWindowMs: number;
  /** Owner-wide ceilings (all clients together); each undefined when off. */
  owner?: {
    maxConcurrent?: number;
    createsPerWindow?: number;
    createWindowMs: number;
    /** Session minutes per UTC day, and what this session is charged (its maximum length, in whole minutes). */
    minutesPerDay?: number;
    minutesCharge: number;
  };
}

/**
 * Which limit refused a reservation. `client_*` → 429 for that client; `owner_*` → 503 for everyone.
 * @public
 */
export type ReserveRefusal = 'client_running' | 'client_creates' | 'owner_running' | 'owner_creates' | 'owner_minutes';

/**
 * The proxy's shared state besides rate counters: which sessions each client (and the owner, all clients
 * together) has running, what they started per window, when each session must end, and which have ended (so their
 * tokens only read status). Each method is one atomic step (one Redis round trip in `redisStore`), safe with
 * several proxy instances on one store.
 * @public
 */
export interface SessionLedger {
  /**
   * Checks every limit and, when all allow it, adds `member` to the client's and the owner's running sets (until
   * `expiresAt`, ms since epoch) and counts one create. Resolves `'ok'` or the limit that refused.
   */
  reserve(client: string, member: string, expiresAt: number, limits: ReserveLimits): Promise<'ok' | ReserveRefusal>;
  /** Turns reservation `from` into session `to` (running until `expiresAt`) and schedules its end at `endAt` (none when negative). */
  commit(client: string, from: string, to: string, expiresAt: number, endAt: number): Promise<void>;
  /** Drops `member` from the running sets and its deadline (a failed create, or a session found over). */
  release(client: string, member: string): Promise<void>;
  /** The client's unexpired members. */
  members(client: string): Promise<string[]>;
  /** Every client's unexpired members, as entries (for the owner-wide cap). */
  allMembers(): Promise<LedgerEntry[]>;
  /**
   * Up to 50 entries whose deadline is at or before `now`. Each is handed to one caller, and its deadline moves
   * to `now + leaseMs`: it comes due again unless {@link SessionLedger.finish} removes it, so an error never loses a deadline.
   */
  due(now: number, leaseMs: number): Promise<LedgerEntry[]>;
  /**
   * Marks a session ended for `ttlMs` with why (`ended`, `max_duration`, `orphaned`) and, when `client` is known,
   * frees its slot and drops its deadline.
   */
  finish(sessionId: string, reason: string, ttlMs: number, client?: string): Promise<void>;
  /** Why the session ended, or undefined while it may still run. */
  endedReason(sessionId: string): Promise<string | undefined>;
}

/** Index of the fixed window of `windowMs` that holds `now`, and ms until it ends. */
export function windowOf(now: number, windowMs: number): { index: number; leftMs: number } {
  return { index: Math.floor(now / windowMs), leftMs: windowMs - (now % windowMs) };
}

/** The UTC day of `now` (`2026-11-26`) and ms until it ends. */
export function dayOf(now: number): { day: string; leftMs: number } {
  return { day: new Date(now).toISOString().slice(0, 10), leftMs: 86_400_000 - (now % 86_400_000) };
}

/** The owner-wide running set's member of a client's member. */
export const ownerMember = (client: string, member: string) => JSON.stringify([client, member]);

/**
 * Where the proxy keeps its counters: rate-limit stores (express-rate-limit `Store`s) and the session ledger.
 * @public
 */
export interface ProxyStore {
  /** A fresh rate-limit store for one limit (`ip`, `session`, `create`). */
  limitStore(name: string): Store;
  ledger: SessionLedger;
  /** What sessions cost per day, agent and client (see `readUsage`); without one the proxy keeps it in memory. */
  spend?: SpendLedger;
}

/**
 * The default store: this process's memory (each proxy instance counts on its own).
 * @public
 */
export function memoryStore(): ProxyStore {
  return { limitStore: () => new WindowStore(), ledger: memoryLedger(), spend: memorySpendLedger() };
}

function memoryLedger(): SessionLedger {
  const running = new Map<string, Map<string, number>>();
  const all = new Map<string, number>();
  const counts = new Map<string, { n: number; until: number }>();
  const deadlines = new Map<string, { entry: LedgerEntry; at: number }>();
  const ended = new Map<string, { reason: string; until: number }>();
  const live = (client: string) => {
    const set = running.get(client) ?? new Map<string, number>();
    const now = Date.now();
    for (const [m, exp] of set) if (exp <= now) set.delete(m);
    if (set.size === 0) running.delete(client);
    return set;
  };
  const liveAll = () => {
    const now = Date.now();
    for (const [m, exp] of all) if (exp <= now) all.delete(m);
    return all;
  };
  const count = (key: string) => {
    const c = counts.get(key);
    if (c && c.until <= Date.now()) counts.delete(key);
    return counts.get(key)?.n ?? 0;
  };
  const add = (key: string, n: number, ttlMs: number) => {
    const now = Date.now();
    if (counts.size > 50_000) for (const [k, v] of counts) if (v.until <= now) counts.delete(k);
    counts.set(key, { n: count(key) + n, until: now + ttlMs });
  };
  const key = (e: LedgerEntry) => ownerMember(e.client, e.sessionId);
  const release = (client: string, member: string) => {
    live(client).delete(member);
    all.delete(ownerMember(client, member));
    deadlines.delete(key({ client, sessionId: member }));
  };
  return {
    async reserve(client, member, expiresAt, limits) {
      const now = Date.now();
      const set = live(client);
      if (set.has(member)) return 'ok';
      const w = windowOf(now, limits.createWindowMs);
      const mine = `creates:${client}:${w.index}`;
      const o = limits.owner;
      const ow = o ? windowOf(now, o.createWindowMs) : undefined;
      const d = dayOf(now);
      if (set.size >= limits.maxConcurrent) return 'client_running';
      if (count(mine) >= limits.createsPerWindow) return 'client_creates';
      if (o?.maxConcurrent !== undefined && liveAll().size >= o.maxConcurrent) return 'owner_running';
      if (o?.createsPerWindow !== undefined && count(`creates-all:${ow!.index}`) >= o.createsPerWindow) return 'owner_creates';
      if (o?.minutesPerDay !== undefined && count(`minutes:${d.day}`) + o.minutesCharge > o.minutesPerDay) return 'owner_minutes';
      set.set(member, expiresAt);
      running.set(client, set);
      // Sessions that ended on their own leave their entry until it expires: prune now and then.
      if (all.size > 10_000) liveAll();
      all.set(ownerMember(client, member), expiresAt);
      add(mine, 1, w.leftMs);
      if (o) add(`creates-all:${ow!.index}`, 1, ow!.leftMs);
      if (o?.minutesPerDay !== undefined) add(`minutes:${d.day}`, o.minutesCharge, d.leftMs);
      return 'ok';
    },
    async commit(client, from, to, expiresAt, endAt) {
      const set = live(client);
      set.delete(from);
      set.set(to, expiresAt);
      running.set(client, set);
      all.delete(ownerMember(client, from));
      all.set(ownerMember(client, to), expiresAt);
      const entry = { client, sessionId: to };
      if (endAt >= 0) deadlines.set(key(entry), { entry, at: endAt });
    },
    async release(client, member) {
      release(client, member);
    },
    async members(client) {
      return [...live(client).keys()];
    },
    async allMembers() {
      return [...liveAll().keys()].map((m) => {
        const [client, sessionId] = JSON.parse(m) as [string, string];
        return { client, sessionId };
      });
    },
    async due(now, leaseMs) {
      const out: LedgerEntry[] = [];
      for (const d of deadlines.values()) {
        if (out.length >= 50) break;
        if (d.at <= now) {
          d.at = now + leaseMs;
          out.push(d.entry);
        }
      }
      return out;
    },
    async finish(sessionId, reason, ttlMs, client) {
      const now = Date.now();
      if (ended.size > 50_000) for (const [k, v] of ended) if (v.until <= now) ended.delete(k);
      ended.set(sessionId, { reason, until: now + ttlMs });
      if (client !== undefined) release(client, sessionId);
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

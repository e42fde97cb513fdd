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
  /** Sessions the client may start in any `createWindowMs` (a sliding window). */
  createsPerWindow: number;
  createWindowMs: number;
  /** Session minutes the client may use per UTC day (undefined when off). */
  minutesPerDay?: number;
  /** What this session is charged against the client's `minutesPerDay`: its maximum length, in whole minutes. */
  minutesCharge?: number;
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
 * Which limit refused a reservation. `client_*` → 429 for that client; `owner_*` → 503 for everyone;
 * `uncounted` → the store does not know what runs (it is new, or lost its data): the proxy counts the running
 * sessions at the service ({@link SessionLedger.rebuild}) before it admits a create.
 * @public
 */
export type ReserveRefusal =
  'client_running' | 'client_creates' | 'client_minutes' | 'owner_running' | 'owner_creates' | 'owner_minutes' | 'uncounted';

/**
 * What {@link SessionLedger.reserve} answers: `'ok'`, or the limit that refused and, for the create windows, in how
 * many ms the oldest create leaves the window.
 * @public
 */
export type ReserveResult = 'ok' | { refused: ReserveRefusal; retryAfterMs?: number };

/**
 * A running session found at the service that the ledger did not hold, as entered by {@link SessionLedger.rebuild}.
 * @public
 */
export interface FoundSession {
  sessionId: string;
  /** When its place under the owner's ceiling lapses unless counted again, ms since epoch. */
  expiresAt: number;
  /** When the proxy ends it (ms since epoch), or -1: only counted, never ended by the proxy. */
  endAt: number;
}

/**
 * The ledger's client of the sessions found running at the service (their browser is not known).
 * @public
 */
export const FOUND_CLIENT = '~service';

/**
 * The proxy's shared state besides rate counters: which sessions each client (and the owner, all clients
 * together) has running, what they started in the last create window (a sliding window: no window boundary lets
 * twice the budget through), when each session must end, and which have ended (so their tokens only read
 * status). Each method is one atomic step (one Redis round trip in `redisStore`), safe with several proxy
 * instances on one store.
 * @public
 */
export interface SessionLedger {
  /**
   * Checks every limit and, when all allow it, adds `member` to the client's and the owner's running sets (until
   * `expiresAt`, ms since epoch) and to the create windows. With an owner-wide running ceiling, refuses
   * `uncounted` until {@link SessionLedger.rebuild} has run on this store's data.
   */
  reserve(client: string, member: string, expiresAt: number, limits: ReserveLimits): Promise<ReserveResult>;
  /** Turns reservation `from` into session `to` (running until `expiresAt`) and schedules its end at `endAt` (none when negative). */
  commit(client: string, from: string, to: string, expiresAt: number, endAt: number): Promise<void>;
  /** Drops `member` from the running sets and its deadline (a failed create, or a session found over). */
  release(client: string, member: string): Promise<void>;
  /**
   * A create the service refused: drops the reservation `member` (made at `reservedAt`, ms since epoch) like
   * `release`, and gives back what it counted: its place in both create windows and the `minutesCharge` it was
   * charged (to the owner's and the client's daily budgets, each where it was charged). Does nothing once the
   * reservation is gone (so it never gives back twice).
   */
  refund(client: string, member: string, reservedAt: number, minutesCharge: number): Promise<void>;
  /**
   * Counts sessions found running at the service that the ledger did not hold (under {@link FOUND_CLIENT}),
   * adds `creates` (ms since epoch of each session the service lists, recent ones) to the owner's create window of
   * `createWindowMs` when the store had lost its count, and marks the store counted.
   */
  rebuild(found: FoundSession[], creates: number[], createWindowMs: number): Promise<void>;
  /**
   * Counts running session `sessionId` under `client` again (the client its handle says it was counted under) when
   * the ledger does not hold it there: after a lost store, in a new process, or after a count found it at the
   * service (it then leaves {@link FOUND_CLIENT}: one place, not two). Holds it until `expiresAt` and schedules its
   * end at `endAt` (none when negative). Never refuses (the session runs already) and does nothing for a session
   * marked ended. One atomic step (one Redis round trip, which also reads the ended mark: a status poll needs no
   * other): `counted` when it counted the session again, `ended` the reason when it is marked ended.
   */
  claim(client: string, sessionId: string, expiresAt: number, endAt: number): Promise<{ counted: boolean; ended?: string }>;
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
   * Marks a session ended for `ttlMs` with why (`ended`, `max_duration`, `orphaned`) and frees a place it holds as
   * a found session; when `client` is known, also frees its slot and drops its deadline.
   */
  finish(sessionId: string, reason: string, ttlMs: number, client?: string): Promise<void>;
  /** Why the session ended, or undefined while it may still run. */
  endedReason(sessionId: string): Promise<string | undefined>;
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
  /** Sliding create windows: key → member → when it was counted (ms since epoch). */
  const logs = new Map<string, Map<string, number>>();
  const counts = new Map<string, { n: number; until: number }>();
  const deadlines = new Map<string, { entry: LedgerEntry; at: number }>();
  const ended = new Map<string, { reason: string; until: number }>();
  /** False until the running sessions were counted at the service (a new process knows nothing). */
  let counted = false;
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
  /** The members of window `key` counted in the last `windowMs`. */
  const log = (key: string, windowMs: number) => {
    const l = logs.get(key) ?? new Map<string, number>();
    const from = Date.now() - windowMs;
    for (const [m, at] of l) if (at <= from) l.delete(m);
    if (l.size === 0) {
      logs.delete(key);
      spans.delete(key);
    }
    return l;
  };
  const spans = new Map<string, number>();
  const logAdd = (key: string, windowMs: number, member: string, at: number) => {
    if (logs.size > 50_000) for (const [k] of logs) log(k, spans.get(k) ?? windowMs);
    spans.set(key, windowMs);
    logs.set(key, log(key, windowMs).set(member, at));
  };
  /** Ms until the oldest member of a full window leaves it. */
  const waitOf = (l: Map<string, number>, windowMs: number) => Math.max(1, Math.min(...l.values()) + windowMs - Date.now());
  const count = (key: string) => {
    const c = counts.get(key);
    if (c && c.until <= Date.now()) counts.delete(key);
    return counts.get(key)?.n ?? 0;
  };
  const add = (key: string, n: number, ttlMs: number) => {
    const now = Date.now();
    if (counts.size > 50_000) for (const [k, v] of counts) if (v.until <= now) counts.delete(k);
    const n0 = count(key);
    counts.set(key, { n: Math.max(0, n0 + n), until: counts.get(key)?.until ?? now + ttlMs });
  };
  const key = (e: LedgerEntry) => ownerMember(e.client, e.sessionId);
  const release = (client: string, member: string) => {
    const had = live(client).delete(member);
    all.delete(ownerMember(client, member));
    deadlines.delete(key({ client, sessionId: member }));
    return had;
  };
  const commit = (client: string, from: string, to: string, expiresAt: number, endAt: number) => {
    const set = live(client);
    set.delete(from);
    set.set(to, expiresAt);
    running.set(client, set);
    all.delete(ownerMember(client, from));
    all.set(ownerMember(client, to), expiresAt);
    const entry = { client, sessionId: to };
    if (endAt >= 0) deadlines.set(key(entry), { entry, at: endAt });
  };
  return {
    async reserve(client, member, expiresAt, limits) {
      const now = Date.now();
      const set = live(client);
      if (set.has(member)) return 'ok';
      const mine = log(`creates:${client}`, limits.createWindowMs);
      const o = limits.owner;
      const ours = o ? log('creates-all', o.createWindowMs) : undefined;
      const d = dayOf(now);
      if (o?.maxConcurrent !== undefined && !counted) return { refused: 'uncounted' };
      if (set.size >= limits.maxConcurrent) return { refused: 'client_running' };
      if (mine.size >= limits.createsPerWindow) return { refused: 'client_creates', retryAfterMs: waitOf(mine, limits.createWindowMs) };
      const charge = limits.minutesCharge ?? 0;
      if (limits.minutesPerDay !== undefined && count(`minutes:${d.day}:${client}`) + charge > limits.minutesPerDay)
        return { refused: 'client_minutes', retryAfterMs: d.leftMs };
      if (o?.maxConcurrent !== undefined && liveAll().size >= o.maxConcurrent) return { refused: 'owner_running' };
      if (o?.createsPerWindow !== undefined && ours!.size >= o.createsPerWindow)
        return { refused: 'owner_creates', retryAfterMs: waitOf(ours!, o.createWindowMs) };
      if (o?.minutesPerDay !== undefined && count(`minutes:${d.day}`) + o.minutesCharge > o.minutesPerDay)
        return { refused: 'owner_minutes', retryAfterMs: d.leftMs };
      set.set(member, expiresAt);
      running.set(client, set);
      // Sessions that ended on their own leave their entry until it expires: prune now and then.
      if (all.size > 10_000) liveAll();
      all.set(ownerMember(client, member), expiresAt);
      // A window whose limit is off (an attach's) counts nothing.
      if (limits.createsPerWindow < Number.MAX_SAFE_INTEGER) logAdd(`creates:${client}`, limits.createWindowMs, member, now);
      if (o?.createsPerWindow !== undefined) logAdd('creates-all', o.createWindowMs, member, now);
      if (o?.minutesPerDay !== undefined) add(`minutes:${d.day}`, o.minutesCharge, d.leftMs);
      if (limits.minutesPerDay !== undefined) add(`minutes:${d.day}:${client}`, charge, d.leftMs);
      return 'ok';
    },
    async commit(client, from, to, expiresAt, endAt) {
      commit(client, from, to, expiresAt, endAt);
    },
    async release(client, member) {
      release(client, member);
    },
    async refund(client, member, reservedAt, minutesCharge) {
      if (!release(client, member)) return;
      logs.get(`creates:${client}`)?.delete(member);
      logs.get('creates-all')?.delete(member);
      const day = dayOf(reservedAt).day;
      // Each budget gives back only where it was charged (its counter exists).
      for (const k of [`minutes:${day}`, `minutes:${day}:${client}`]) if (minutesCharge > 0 && count(k) > 0) add(k, -minutesCharge, 1);
    },
    async rebuild(found, creates, createWindowMs) {
      for (const f of found) commit(FOUND_CLIENT, f.sessionId, f.sessionId, f.expiresAt, f.endAt);
      if (!counted) creates.forEach((at, i) => logAdd('creates-all', createWindowMs, `found:${i}:${at}`, at));
      counted = true;
    },
    async claim(client, sessionId, expiresAt, endAt) {
      const e = ended.get(sessionId);
      if (e && e.until > Date.now()) return { counted: false, ended: e.reason };
      const held = live(client).has(sessionId);
      const found = client !== FOUND_CLIENT && live(FOUND_CLIENT).has(sessionId);
      if (found) release(FOUND_CLIENT, sessionId);
      if (held) return { counted: found };
      commit(client, sessionId, sessionId, expiresAt, endAt);
      return { counted: true };
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
      release(FOUND_CLIENT, sessionId);
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

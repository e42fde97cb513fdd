/**
 * The spend ledger: what each UTC day's sessions cost, in total, per agent and per client key, plus the latest ended
 * sessions. It lives in the proxy's store (memory, or the same Redis as the limits), so every proxy instance adds to
 * one ledger and a restart loses nothing (with Redis). Each session is entered once, by whichever instance first
 * learns its end.
 */

/** Days a day's totals are kept. */
export const SPEND_RETENTION_DAYS = 35;
/** Ended sessions kept for the usage view. */
export const RECENT_MAX = 200;
/** How long a session's description (agent, client, start) and its "entered" mark are kept, ms. */
export const SESSION_META_TTL_MS = 2 * 24 * 3600_000;

/**
 * What the proxy remembers of a session it created, until it learns its end.
 * @public
 */
export interface SpendSession {
  /** `agent_id`, or `custom_image`. */
  agent: string;
  /** The client key the per-client limits use (the signed-in user from `clientKey`, or the address group). */
  client: string;
  /** When the proxy created it, ms since epoch. */
  startedAt: number;
}

/**
 * One ended session as the ledger enters it.
 * @public
 */
export interface SpendEntry extends SpendSession {
  sessionId: string;
  /** Why it ended (see `SessionEndReason`). */
  reason: string;
  /** Credits the service charged, or null when it reported none (`FAILED`, `TIMED_OUT`, or no answer). */
  credits: number | null;
  /** From the create to the end the proxy learned of, s. */
  seconds: number;
  /** ms since epoch. */
  endedAt: number;
}

/**
 * Totals of one agent or one client key on one day.
 * @public
 */
export interface SpendTotals {
  /** Sessions that ended. */
  sessions: number;
  /** Credits the service charged. */
  credits: number;
  /** Session seconds (from create to end). */
  seconds: number;
}

/**
 * One UTC day of the ledger: totals, per agent, per client key, and sessions per end reason.
 * @public
 */
export interface SpendDay extends SpendTotals {
  /** `2026-11-28` (UTC). */
  day: string;
  agents: Record<string, SpendTotals>;
  clients: Record<string, SpendTotals>;
  reasons: Record<string, number>;
}

/**
 * Where the spend ledger is kept; `memoryStore()` and `redisStore()` carry one each (`ProxyStore.spend`).
 * @public
 */
export interface SpendLedger {
  /** Remembers what a new session is, for its end. */
  open(sessionId: string, session: SpendSession): Promise<void>;
  /** What was remembered of a session, if anything. */
  session(sessionId: string): Promise<SpendSession | undefined>;
  /** True the first time `mark` is set for this session (in every instance sharing the store). */
  once(sessionId: string, mark: string): Promise<boolean>;
  /** Enters one ended session in its day's totals; false when it was entered already (by any instance). */
  enter(entry: SpendEntry): Promise<boolean>;
  /** The days `from`..`to` (`YYYY-MM-DD`, UTC, inclusive), oldest first; days without sessions are zeros. */
  days(from: string, to: string): Promise<SpendDay[]>;
  /** The latest ended sessions, newest first (at most 200). */
  recent(limit: number): Promise<SpendEntry[]>;
  /** One read, to tell whether the store answers. */
  ping(): Promise<void>;
}

/** `2026-11-28` of `ms`. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The UTC days from `from` to `to`, inclusive (at most 366). */
export function dayRange(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && out.length < 366; t += 86_400_000) {
    out.push(utcDay(t));
  }
  return out;
}

const zero = (): SpendTotals => ({ sessions: 0, credits: 0, seconds: 0 });
const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Field names of a day's hash: `t|credits`, `a|<agent>|credits`, `c|<client>|seconds`, `r|<reason>`. */
function fieldsOf(e: SpendEntry): [string, number][] {
  const credits = e.credits ?? 0;
  const out: [string, number][] = [['r|' + e.reason, 1]];
  for (const scope of ['t', `a|${e.agent}`, `c|${e.client}`]) {
    out.push([`${scope}|sessions`, 1], [`${scope}|credits`, credits], [`${scope}|seconds`, e.seconds]);
  }
  return out;
}

/** A day's totals from its hash fields. */
function dayOf(day: string, fields: Iterable<[string, number]>): SpendDay {
  const d: SpendDay = { day, ...zero(), agents: {}, clients: {}, reasons: {} };
  for (const [field, value] of fields) {
    const first = field.indexOf('|');
    const last = field.lastIndexOf('|');
    const kind = field.slice(0, first);
    if (kind === 'r') {
      d.reasons[field.slice(first + 1)] = value;
      continue;
    }
    const metric = field.slice(last + 1) as keyof SpendTotals;
    if (metric !== 'sessions' && metric !== 'credits' && metric !== 'seconds') continue;
    const target =
      kind === 't'
        ? d
        : kind === 'a'
          ? (d.agents[field.slice(first + 1, last)] ??= zero())
          : kind === 'c'
            ? (d.clients[field.slice(first + 1, last)] ??= zero())
            : undefined;
    if (target) target[metric] = round(value);
  }
  return d;
}

/** The ledger in this process's memory (each proxy instance keeps its own). */
export function memorySpendLedger(): SpendLedger {
  const sessions = new Map<string, { s: SpendSession; until: number }>();
  const marks = new Map<string, number>();
  const days = new Map<string, Map<string, number>>();
  const recent: SpendEntry[] = [];
  const prune = (now: number) => {
    if (sessions.size > 50_000) for (const [k, v] of sessions) if (v.until <= now) sessions.delete(k);
    if (marks.size > 100_000) for (const [k, v] of marks) if (v <= now) marks.delete(k);
    const oldest = utcDay(now - SPEND_RETENTION_DAYS * 86_400_000);
    for (const d of days.keys()) if (d < oldest) days.delete(d);
  };
  const once = (key: string) => {
    const now = Date.now();
    const until = marks.get(key);
    if (until !== undefined && until > now) return false;
    prune(now);
    marks.set(key, now + SESSION_META_TTL_MS);
    return true;
  };
  return {
    async open(sessionId, s) {
      prune(Date.now());
      sessions.set(sessionId, { s, until: Date.now() + SESSION_META_TTL_MS });
    },
    async session(sessionId) {
      const v = sessions.get(sessionId);
      return v && v.until > Date.now() ? v.s : undefined;
    },
    async once(sessionId, mark) {
      return once(`${mark}:${sessionId}`);
    },
    async enter(e) {
      if (!once(`entered:${e.sessionId}`)) return false;
      const day = utcDay(e.endedAt);
      const h = days.get(day) ?? new Map<string, number>();
      days.set(day, h);
      for (const [f, n] of fieldsOf(e)) h.set(f, (h.get(f) ?? 0) + n);
      recent.unshift(e);
      if (recent.length > RECENT_MAX) recent.length = RECENT_MAX;
      return true;
    },
    async days(from, to) {
      return dayRange(from, to).map((d) => dayOf(d, days.get(d) ?? []));
    },
    async recent(limit) {
      return recent.slice(0, Math.max(0, limit));
    },
    async ping() {},
  };
}

/** Sends one raw Redis command (as `redisStore`'s `sendCommand`, with its time limit). */
export type RedisSend = (args: string[]) => Promise<unknown>;

// KEYS: entered mark, day hash, recent list. ARGV: mark ttl, day ttl, recent item, recent max, then field/increment pairs.
const ENTER = `if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
for i = 5, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('LPUSH', KEYS[3], ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
return 1`;

/**
 * The ledger in Redis, under `prefix` (the store's). Keys share the hash tag `{spend}`, so the one script that enters
 * a session (atomic: the "entered" mark, the day's totals, the recent list) also runs on a Redis Cluster.
 */
export function redisSpendLedger(send: RedisSend, prefix: string): SpendLedger {
  const k = (rest: string) => `${prefix}{spend}:${rest}`;
  const parse = <T>(v: unknown): T | undefined => {
    if (typeof v !== 'string') return undefined;
    try {
      return JSON.parse(v) as T;
    } catch {
      return undefined;
    }
  };
  return {
    async open(sessionId, s) {
      await send(['SET', k(`session:${sessionId}`), JSON.stringify(s), 'PX', String(SESSION_META_TTL_MS)]);
    },
    async session(sessionId) {
      return parse<SpendSession>(await send(['GET', k(`session:${sessionId}`)]));
    },
    async once(sessionId, mark) {
      const out = await send(['SET', k(`${mark}:${sessionId}`), '1', 'NX', 'PX', String(SESSION_META_TTL_MS)]);
      return out !== null && out !== undefined;
    },
    async enter(e) {
      const pairs = fieldsOf(e).flatMap(([f, n]) => [f, String(n)]);
      const out = await send([
        'EVAL',
        ENTER,
        '3',
        k(`entered:${e.sessionId}`),
        k(`day:${utcDay(e.endedAt)}`),
        k('recent'),
        String(SESSION_META_TTL_MS),
        String(SPEND_RETENTION_DAYS * 86_400_000),
        JSON.stringify(e),
        String(RECENT_MAX),
        ...pairs,
      ]);
      return Number(out) === 1;
    },
    async days(from, to) {
      const out: SpendDay[] = [];
      for (const d of dayRange(from, to)) {
        const flat = await send(['HGETALL', k(`day:${d}`)]);
        const fields: [string, number][] = [];
        if (Array.isArray(flat)) for (let i = 0; i + 1 < flat.length; i += 2) fields.push([String(flat[i]), Number(flat[i + 1])]);
        else if (flat && typeof flat === 'object') for (const [f, v] of Object.entries(flat)) fields.push([f, Number(v)]);
        out.push(dayOf(d, fields));
      }
      return out;
    },
    async recent(limit) {
      const n = Math.min(RECENT_MAX, Math.max(0, limit));
      if (n === 0) return [];
      const items = await send(['LRANGE', k('recent'), '0', String(n - 1)]);
      return Array.isArray(items) ? items.flatMap((i) => parse<SpendEntry>(String(i)) ?? []) : [];
    },
    async ping() {
      await send(['GET', k('ping')]);
    },
  };
}

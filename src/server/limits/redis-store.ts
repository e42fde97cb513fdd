import type { Store } from '../peer-types';
import { LiveAiError } from '../../core/index';
import { loadPeer } from '../peers';
import { redisSpendLedger } from '../ops/spend-ledger';
import { dayOf, FOUND_CLIENT, ownerMember, type LedgerEntry, type ProxyStore, type ReserveRefusal, type SessionLedger } from './store';

/**
 * Sends one raw Redis command, e.g. node-redis `(args) => client.sendCommand(args)` or ioredis
 * `(args) => client.call(...args)`. `key` is the first key the command names (undefined for none): a Redis Cluster
 * client routes by it, e.g. node-redis `createCluster` with `(args, key) => cluster.sendCommand(key, false, args)`
 * (an ioredis `Cluster` finds the key itself: `(args) => cluster.call(...args)`).
 * @public
 */
export type RedisSendCommand = (args: string[], key?: string) => Promise<unknown>;

/**
 * Options of {@link redisStore}.
 * @public
 */
export interface RedisStoreOptions {
  /** Sends a raw command to your Redis connection (node-redis, ioredis, or any client with a raw-command call). */
  sendCommand: RedisSendCommand;
  /**
   * Prefix of every key (default `liveai:`); use one per app sharing a Redis. The session ledger's keys start with
   * it as a Redis Cluster hash tag (`{liveai:}run-all`), so each of its atomic steps stays on one cluster node.
   */
  prefix?: string;
  /**
   * Longest wait for one Redis answer, in ms (default 1000). Past it (or on any Redis error) the request fails
   * closed: 503 `{detail}`, no session started, nothing spent; `/end` still reaches the avatar service.
   */
  timeoutMs?: number;
}

/** Default of {@link RedisStoreOptions.timeoutMs}. */
export const REDIS_TIMEOUT_MS = 1000;

/** A Redis error or time-out: the proxy answers 503 and starts nothing. */
export class StoreUnavailable extends LiveAiError {
  constructor(cause: unknown) {
    const detail = 'The avatar proxy cannot reach its store right now; try again in a moment';
    super('upstream_error', detail, { status: 503, cause });
  }
}

// Every key of the ledger carries the hash tag `{prefix}`, so every script's keys lie in one hash slot (Redis Cluster).
// KEYS: run:client, run-all, creates:client, creates-all, minutes:day, counted, minutes:day:client
// ARGV: now, member, owner member, expiresAt, max, creates max, creates window, owner max, owner creates max,
//       owner creates window, minutes budget, minutes charge, minutes ttl, needs counted, client minutes budget,
//       client minutes charge (each owner limit and the client's minutes budget -1 when off)
// The create windows are sliding: sorted sets of the reservations' members scored by when they were made (a window
// whose limit is off, e.g. an attach's, counts nothing).
const RESERVE = `local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 'ok' end
if ARGV[14] == '1' and redis.call('EXISTS', KEYS[6]) == 0 then return 'uncounted' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 'client_running' end
local function wait(key, max, span)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  if redis.call('ZCARD', key) < max then return nil end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + span - now)
end
local w = wait(KEYS[3], tonumber(ARGV[6]), tonumber(ARGV[7]))
if w then return 'client_creates:' .. w end
local mine = tonumber(redis.call('GET', KEYS[7]) or '0')
if tonumber(ARGV[15]) >= 0 and mine + tonumber(ARGV[16]) > tonumber(ARGV[15]) then return 'client_minutes:' .. ARGV[13] end
if tonumber(ARGV[8]) >= 0 and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[8]) then return 'owner_running' end
if tonumber(ARGV[9]) >= 0 then
  w = wait(KEYS[4], tonumber(ARGV[9]), tonumber(ARGV[10]))
  if w then return 'owner_creates:' .. w end
end
local minutes = tonumber(redis.call('GET', KEYS[5]) or '0')
if tonumber(ARGV[11]) >= 0 and minutes + tonumber(ARGV[12]) > tonumber(ARGV[11]) then return 'owner_minutes:' .. ARGV[13] end
local keep = math.max(1, tonumber(ARGV[4]) - now) + 60000
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[2], math.max(keep, redis.call('PTTL', KEYS[2])))
if tonumber(ARGV[6]) < 9007199254740991 then
  redis.call('ZADD', KEYS[3], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
end
if tonumber(ARGV[9]) >= 0 then
  redis.call('ZADD', KEYS[4], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[4], ARGV[10])
end
if tonumber(ARGV[11]) >= 0 then
  redis.call('INCRBY', KEYS[5], ARGV[12])
  redis.call('PEXPIRE', KEYS[5], ARGV[13])
end
if tonumber(ARGV[15]) >= 0 then
  redis.call('INCRBY', KEYS[7], ARGV[16])
  redis.call('PEXPIRE', KEYS[7], ARGV[13])
end
return 'ok'`;
// KEYS: run:client, run-all, deadlines. ARGV: from, to, expiresAt, owner from, owner to, endAt, now
const COMMIT = `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[5])
local keep = math.max(1, tonumber(ARGV[3]) - tonumber(ARGV[7])) + 60000
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('PEXPIRE', KEYS[2], math.max(keep, redis.call('PTTL', KEYS[2])))
if tonumber(ARGV[6]) >= 0 then redis.call('ZADD', KEYS[3], ARGV[6], ARGV[5]) end
return 1`;
// KEYS: ended:id, run:client, run-all, deadlines, run:found.
// ARGV: reason ('' = only release), ttl, member, owner member, found member, found owner member
const FINISH = `if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if ARGV[3] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('ZREM', KEYS[4], ARGV[4])
end
if ARGV[5] ~= '' then
  redis.call('ZREM', KEYS[5], ARGV[5])
  redis.call('ZREM', KEYS[3], ARGV[6])
  redis.call('ZREM', KEYS[4], ARGV[6])
end
return 1`;
// KEYS: run:client, run-all, deadlines, run:found, ended:id.
// ARGV: now, session id, owner member, found owner member, expiresAt, endAt.
// Returns 'ended:<reason>' for a session marked ended, else 1 when it counted the session again, 0 when it held it.
const CLAIM = `local now = tonumber(ARGV[1])
local reason = redis.call('GET', KEYS[5])
if reason then return 'ended:' .. reason end
local held = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[2]) or '0') > now
local found = KEYS[4] ~= KEYS[1] and redis.call('ZREM', KEYS[4], ARGV[2]) == 1
if found then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[4])
end
if held then return found and 1 or 0 end
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[3])
local keep = math.max(1, tonumber(ARGV[5]) - now) + 60000
redis.call('PEXPIRE', KEYS[1], math.max(keep, redis.call('PTTL', KEYS[1])))
redis.call('PEXPIRE', KEYS[2], math.max(keep, redis.call('PTTL', KEYS[2])))
if tonumber(ARGV[6]) >= 0 then redis.call('ZADD', KEYS[3], ARGV[6], ARGV[3]) end
return 1`;
// KEYS: deadlines. ARGV: now, lease until
const DUE = `local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 50)
for _, m in ipairs(items) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return items`;
// KEYS: run:client, run-all, deadlines, creates:client, creates-all, minutes:day, minutes:day:client.
// ARGV: member, owner member, charge (given back to each budget that was charged: its counter exists)
const REFUND = `local had = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
if had == 0 then return 0 end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
for _, k in ipairs({ KEYS[6], KEYS[7] }) do
  if tonumber(ARGV[3]) > 0 and redis.call('EXISTS', k) == 1 then
    if redis.call('DECRBY', k, ARGV[3]) <= 0 then redis.call('DEL', k) end
  end
end
return 1`;
// KEYS: run:found, run-all, deadlines, creates-all, counted.
// ARGV: now, create window, n found, then 4 per found session (member, owner member, expiresAt, endAt), then the
//       creates (ms since epoch) to count when the store had lost its count
const REBUILD = `local now = tonumber(ARGV[1])
local fresh = redis.call('EXISTS', KEYS[5]) == 0
local i = 4
local keep = 60000
for _ = 1, tonumber(ARGV[3]) do
  redis.call('ZADD', KEYS[1], ARGV[i + 2], ARGV[i])
  redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i + 1])
  if tonumber(ARGV[i + 3]) >= 0 then redis.call('ZADD', KEYS[3], ARGV[i + 3], ARGV[i + 1]) end
  keep = math.max(keep, tonumber(ARGV[i + 2]) - now + 60000)
  i = i + 4
end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], keep) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], math.max(keep, redis.call('PTTL', KEYS[2]))) end
if fresh then
  local n = 0
  while i <= #ARGV do
    redis.call('ZADD', KEYS[4], ARGV[i], 'found:' .. i .. ':' .. ARGV[i])
    n = n + 1
    i = i + 1
  end
  if n > 0 then redis.call('PEXPIRE', KEYS[4], math.max(redis.call('PTTL', KEYS[4]), tonumber(ARGV[2]))) end
end
redis.call('SET', KEYS[5], now)
return 1`;
/**
 * Counters in Redis, shared by every proxy instance that uses the same Redis and prefix: rate limits through
 * `rate-limit-redis` (the maintained Redis store of express-rate-limit), and running sessions, create budgets,
 * deadlines and ended sessions through small atomic Lua scripts (one round trip per step: a create costs four,
 * the per-client request limit and the spend ledger's note of the session included). Bring your own connection:
 * `redisStore({ sendCommand: (args) => client.sendCommand(args) })` with node-redis.
 * Every command has a time limit (`timeoutMs`); a Redis fault fails closed (503, nothing started).
 * @throws LiveAiError `missing_peer` when rate-limit-redis is not installed.
 * @public
 */
export function redisStore(options: RedisStoreOptions): ProxyStore {
  if (typeof options?.sendCommand !== 'function') throw new LiveAiError('invalid_request', 'redisStore: sendCommand must be a function');
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new LiveAiError('invalid_request', 'redisStore: timeoutMs must be a whole number of ms ≥ 1');
  type RedisStoreCtor = new (
    o: { prefix: string } & (
      | { sendCommand: (...args: string[]) => Promise<never> }
      | { sendCommandCluster: (c: { key?: string; command: string[] }) => Promise<never> }
    ),
  ) => Store;
  const mod = loadPeer<{ RedisStore: RedisStoreCtor }>('rate-limit-redis', 'redisStore');
  const prefix = options.prefix ?? 'liveai:';
  const raw = options.sendCommand;
  const send: RedisSendCommand = (args, key) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new StoreUnavailable(new Error(`Redis did not answer within ${timeoutMs} ms`))), timeoutMs);
      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(raw(args, key));
      } catch (e) {
        pending = Promise.reject(e);
      }
      pending.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(timer);
          // NOSCRIPT (a restarted Redis forgot its scripts) goes through as it is: rate-limit-redis reloads its script
          // on it. Wrapped, it would look like a store fault to it, and every limited route would answer 503 until
          // the proxy restarted.
          reject(e instanceof StoreUnavailable || isNoScript(e) ? e : new StoreUnavailable(e));
        },
      );
    });
  type Cluster = { key?: string; command: string[] };
  // rate-limit-redis loads its scripts once, when the proxy starts, and keeps the answer: had that load failed (Redis
  // unreachable or paused at that moment), every later rate-limited request would fail with it, 503 until the proxy
  // restarted. A script's SHA is the SHA-1 of its text: answered here when Redis cannot, the first use of it gets
  // NOSCRIPT, on which rate-limit-redis loads it again.
  const limitSend = (command: string[], key?: string) =>
    send(command, key).catch(async (e: unknown) => {
      if (command[0]?.toUpperCase() === 'SCRIPT' && command[1]?.toUpperCase() === 'LOAD' && typeof command[2] === 'string')
        return sha1Hex(command[2]);
      throw e;
    });
  const limitStore = (name: string): Store => {
    const common = { prefix: `${prefix}rl:${name}:` };
    try {
      // rate-limit-redis ≥ 4.2 names the key of each command, which a Redis Cluster needs.
      return new mod.RedisStore({
        ...common,
        sendCommandCluster: ({ key, command }: Cluster) => limitSend(command, key) as Promise<never>,
      });
    } catch {
      return new mod.RedisStore({ ...common, sendCommand: (...args: string[]) => limitSend(args) as Promise<never> });
    }
  };
  return { limitStore, ledger: redisLedger(send, prefix), spend: redisSpendLedger(send, prefix) };
}

function redisLedger(send: RedisSendCommand, prefix: string): SessionLedger {
  const tag = `{${prefix}}`;
  const run = (client: string) => `${tag}run:${client}`;
  const all = `${tag}run-all`;
  const deadlines = `${tag}deadlines`;
  const ended = (sessionId: string) => `${tag}ended:${sessionId}`;
  const createsOf = (client: string) => `${tag}creates:${client}`;
  const createsAll = `${tag}creates-all`;
  const minutes = (at: number) => `${tag}minutes:${dayOf(at).day}`;
  const minutesOf = (at: number, client: string) => `${tag}minutes:${dayOf(at).day}:${client}`;
  const evalKeys = (script: string, keys: string[], ...args: (string | number)[]) =>
    send(['EVAL', script, String(keys.length), ...keys, ...args.map(String)], keys[0]);
  const entries = (out: unknown): LedgerEntry[] =>
    Array.isArray(out)
      ? out.flatMap((m) => {
          try {
            const [client, sessionId] = JSON.parse(String(m)) as [string, string];
            return [{ client, sessionId }];
          } catch {
            return [];
          }
        })
      : [];
  const finish = (sessionId: string, reason: string, ttlMs: number, client: string | undefined, found: boolean) =>
    evalKeys(
      FINISH,
      [ended(sessionId), run(client ?? '-'), all, deadlines, run(FOUND_CLIENT)],
      reason,
      Math.max(1, Math.round(ttlMs)),
      client === undefined ? '' : sessionId,
      client === undefined ? '' : ownerMember(client, sessionId),
      found ? sessionId : '',
      found ? ownerMember(FOUND_CLIENT, sessionId) : '',
    );
  return {
    async reserve(client, member, expiresAt, limits) {
      const now = Date.now();
      const o = limits.owner;
      const d = dayOf(now);
      const out = String(
        await evalKeys(
          RESERVE,
          [run(client), all, createsOf(client), createsAll, minutes(now), `${tag}counted`, minutesOf(now, client)],
          now,
          member,
          ownerMember(client, member),
          expiresAt,
          limits.maxConcurrent,
          limits.createsPerWindow,
          limits.createWindowMs,
          o?.maxConcurrent ?? -1,
          o?.createsPerWindow ?? -1,
          o?.createWindowMs ?? limits.createWindowMs,
          o?.minutesPerDay ?? -1,
          o?.minutesCharge ?? 0,
          d.leftMs,
          o?.maxConcurrent !== undefined ? 1 : 0,
          limits.minutesPerDay ?? -1,
          limits.minutesCharge ?? 0,
        ),
      );
      if (out === 'ok') return 'ok';
      const [why, ms] = out.split(':');
      return { refused: why as ReserveRefusal, ...(ms ? { retryAfterMs: Number(ms) } : {}) };
    },
    async commit(client, from, to, expiresAt, endAt) {
      await evalKeys(
        COMMIT,
        [run(client), all, deadlines],
        from,
        to,
        expiresAt,
        ownerMember(client, from),
        ownerMember(client, to),
        endAt,
        Date.now(),
      );
    },
    async release(client, member) {
      await finish(member, '', 0, client, false);
    },
    async refund(client, member, reservedAt, minutesCharge) {
      await evalKeys(
        REFUND,
        [run(client), all, deadlines, createsOf(client), createsAll, minutes(reservedAt), minutesOf(reservedAt, client)],
        member,
        ownerMember(client, member),
        minutesCharge,
      );
    },
    async rebuild(found, creates, createWindowMs) {
      await evalKeys(
        REBUILD,
        [run(FOUND_CLIENT), all, deadlines, createsAll, `${tag}counted`],
        Date.now(),
        createWindowMs,
        found.length,
        ...found.flatMap((f) => [f.sessionId, ownerMember(FOUND_CLIENT, f.sessionId), f.expiresAt, f.endAt]),
        ...creates,
      );
    },
    async claim(client, sessionId, expiresAt, endAt) {
      const out = await evalKeys(
        CLAIM,
        [run(client), all, deadlines, run(FOUND_CLIENT), ended(sessionId)],
        Date.now(),
        sessionId,
        ownerMember(client, sessionId),
        ownerMember(FOUND_CLIENT, sessionId),
        expiresAt,
        endAt,
      );
      const text = String(out);
      return text.startsWith('ended:') ? { counted: false, ended: text.slice('ended:'.length) } : { counted: text === '1' };
    },
    async members(client) {
      const key = run(client);
      const out = await send(['ZRANGEBYSCORE', key, String(Date.now() + 1), '+inf'], key);
      return Array.isArray(out) ? out.map(String) : [];
    },
    async allMembers() {
      return entries(await send(['ZRANGEBYSCORE', all, String(Date.now() + 1), '+inf'], all));
    },
    async due(now, leaseMs) {
      return entries(await evalKeys(DUE, [deadlines], now, now + leaseMs));
    },
    async finish(sessionId, reason, ttlMs, client) {
      await finish(sessionId, reason, ttlMs, client, true);
    },
    async endedReason(sessionId) {
      const key = ended(sessionId);
      const v = await send(['GET', key], key);
      return v === null || v === undefined ? undefined : String(v);
    },
  };
}

/** A Redis `NOSCRIPT` reply: the script a command named by its hash is not loaded (yet, or any more). */
const isNoScript = (e: unknown) => e instanceof Error && /^NOSCRIPT(?:\s|$)/.test(e.message);

/** The SHA-1 of `text` in hex, as Redis names a script (WebCrypto: every runtime has it). */
async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

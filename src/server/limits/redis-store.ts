import type { Store } from '../peer-types';
import { LiveAiError } from '../../core/index';
import { loadPeer } from '../peers';
import { redisSpendLedger } from '../ops/spend-ledger';
import { dayOf, ownerMember, windowOf, type LedgerEntry, type ProxyStore, type ReserveRefusal, type SessionLedger } from './store';

/**
 * Sends one raw Redis command, e.g. node-redis `(args) => client.sendCommand(args)` or ioredis `(args) => client.call(...args)`.
 * @public
 */
export type RedisSendCommand = (args: string[]) => Promise<unknown>;

/**
 * Options of {@link redisStore}.
 * @public
 */
export interface RedisStoreOptions {
  /** Sends a raw command to your Redis connection (node-redis, ioredis, or any client with a raw-command call). */
  sendCommand: RedisSendCommand;
  /** Prefix of every key (default `liveai:`); use one per app sharing a Redis. */
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

// KEYS: run:client, run-all, creates:client:window, creates-all:window, minutes:day
// ARGV: now, member, owner member, expiresAt, max, creates max, creates ttl, owner max, owner creates max,
//       owner creates ttl, minutes budget, minutes charge, minutes ttl (each owner limit -1 when off)
const RESERVE = `local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 'ok' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 'client_running' end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[6]) then return 'client_creates' end
if tonumber(ARGV[8]) >= 0 and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[8]) then return 'owner_running' end
if tonumber(ARGV[9]) >= 0 and tonumber(redis.call('GET', KEYS[4]) or '0') >= tonumber(ARGV[9]) then return 'owner_creates' end
local minutes = tonumber(redis.call('GET', KEYS[5]) or '0')
if tonumber(ARGV[11]) >= 0 and minutes + tonumber(ARGV[12]) > tonumber(ARGV[11]) then return 'owner_minutes' end
local keep = math.max(1, tonumber(ARGV[4]) - now) + 60000
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[2], math.max(keep, redis.call('PTTL', KEYS[2])))
redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[7])
redis.call('INCR', KEYS[4])
redis.call('PEXPIRE', KEYS[4], ARGV[10])
if tonumber(ARGV[11]) >= 0 then
  redis.call('INCRBY', KEYS[5], ARGV[12])
  redis.call('PEXPIRE', KEYS[5], ARGV[13])
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
// KEYS: ended:id, run:client, run-all, deadlines. ARGV: reason ('' = only release), ttl, member, owner member
const FINISH = `if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if ARGV[3] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[4])
  redis.call('ZREM', KEYS[4], ARGV[4])
end
return 1`;
// KEYS: deadlines. ARGV: now, lease until
const DUE = `local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 50)
for _, m in ipairs(items) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return items`;

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
  const mod = loadPeer<{ RedisStore: new (o: { sendCommand: (...args: string[]) => Promise<never>; prefix: string }) => Store }>(
    'rate-limit-redis',
    'redisStore',
  );
  const prefix = options.prefix ?? 'liveai:';
  const raw = options.sendCommand;
  const send: RedisSendCommand = (args) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new StoreUnavailable(new Error(`Redis did not answer within ${timeoutMs} ms`))), timeoutMs);
      let pending: Promise<unknown>;
      try {
        pending = Promise.resolve(raw(args));
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
          reject(e instanceof StoreUnavailable ? e : new StoreUnavailable(e));
        },
      );
    });
  return {
    limitStore: (name) =>
      new mod.RedisStore({ sendCommand: (...args: string[]) => send(args) as Promise<never>, prefix: `${prefix}rl:${name}:` }),
    ledger: redisLedger(send, prefix),
    spend: redisSpendLedger(send, prefix),
  };
}

function redisLedger(send: RedisSendCommand, prefix: string): SessionLedger {
  const run = (client: string) => `${prefix}run:${client}`;
  const all = `${prefix}run-all`;
  const deadlines = `${prefix}deadlines`;
  const evalKeys = (script: string, keys: string[], ...args: (string | number)[]) =>
    send(['EVAL', script, String(keys.length), ...keys, ...args.map(String)]);
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
  return {
    async reserve(client, member, expiresAt, limits) {
      const now = Date.now();
      const w = windowOf(now, limits.createWindowMs);
      const o = limits.owner;
      const ow = windowOf(now, o?.createWindowMs ?? limits.createWindowMs);
      const d = dayOf(now);
      const out = await evalKeys(
        RESERVE,
        [run(client), all, `${prefix}creates:${client}:${w.index}`, `${prefix}creates-all:${ow.index}`, `${prefix}minutes:${d.day}`],
        now,
        member,
        ownerMember(client, member),
        expiresAt,
        limits.maxConcurrent,
        limits.createsPerWindow,
        w.leftMs,
        o?.maxConcurrent ?? -1,
        o?.createsPerWindow ?? -1,
        ow.leftMs,
        o?.minutesPerDay ?? -1,
        o?.minutesCharge ?? 0,
        d.leftMs,
      );
      return String(out) as 'ok' | ReserveRefusal;
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
      await evalKeys(FINISH, [`${prefix}ended:-`, run(client), all, deadlines], '', 0, member, ownerMember(client, member));
    },
    async members(client) {
      const out = await send(['ZRANGEBYSCORE', run(client), String(Date.now() + 1), '+inf']);
      return Array.isArray(out) ? out.map(String) : [];
    },
    async allMembers() {
      return entries(await send(['ZRANGEBYSCORE', all, String(Date.now() + 1), '+inf']));
    },
    async due(now, leaseMs) {
      return entries(await evalKeys(DUE, [deadlines], now, now + leaseMs));
    },
    async finish(sessionId, reason, ttlMs, client) {
      await evalKeys(
        FINISH,
        [`${prefix}ended:${sessionId}`, run(client ?? '-'), all, deadlines],
        reason,
        Math.max(1, Math.round(ttlMs)),
        client === undefined ? '' : sessionId,
        client === undefined ? '' : ownerMember(client, sessionId),
      );
    },
    async endedReason(sessionId) {
      const v = await send(['GET', `${prefix}ended:${sessionId}`]);
      return v === null || v === undefined ? undefined : String(v);
    },
  };
}

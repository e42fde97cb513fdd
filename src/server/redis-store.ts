import type { Store } from './peer-types';
import { LiveAiError } from '../core/errors';
import { loadPeer } from './peers';
import type { LedgerEntry, ProxyStore, SessionLedger } from './store';

/** Sends one raw Redis command, e.g. node-redis `(args) => client.sendCommand(args)` or ioredis `(args) => client.call(...args)`. */
export type RedisSendCommand = (args: string[]) => Promise<unknown>;

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Sends a raw command to your Redis connection (node-redis, ioredis, or any client with a raw-command call). */
  sendCommand: RedisSendCommand;
  /** Prefix of every key (default `liveai:`); use one per app sharing a Redis. */
  prefix?: string;
}

const RESERVE = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[4]) == false and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(ARGV[3]) - tonumber(ARGV[1])) + 60000)
return 1`;
const RENAME = `redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(ARGV[2]) - tonumber(ARGV[4])) + 60000)
return 1`;
const DUE = `local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 50)
for _, m in ipairs(items) do redis.call('ZREM', KEYS[1], m) end
return items`;

/**
 * Counters in Redis, shared by every proxy instance that uses the same Redis and prefix: rate limits through
 * `rate-limit-redis` (the maintained Redis store of express-rate-limit), and running sessions, deadlines and
 * ended sessions through small atomic Lua scripts. Bring your own connection:
 * `redisStore({ sendCommand: (args) => client.sendCommand(args) })` with node-redis.
 * @throws LiveAiError `missing_peer` when rate-limit-redis is not installed.
 */
export function redisStore(options: RedisStoreOptions): ProxyStore {
  if (typeof options?.sendCommand !== 'function') throw new LiveAiError('invalid_request', 'redisStore: sendCommand must be a function');
  const mod = loadPeer<{ RedisStore: new (o: { sendCommand: (...args: string[]) => Promise<never>; prefix: string }) => Store }>(
    'rate-limit-redis',
    'redisStore',
  );
  const prefix = options.prefix ?? 'liveai:';
  const send = options.sendCommand;
  return {
    limitStore: (name) =>
      new mod.RedisStore({ sendCommand: (...args: string[]) => send(args) as Promise<never>, prefix: `${prefix}rl:${name}:` }),
    ledger: redisLedger(send, prefix),
  };
}

function redisLedger(send: RedisSendCommand, prefix: string): SessionLedger {
  const run = (client: string) => `${prefix}run:${client}`;
  const deadlines = `${prefix}deadlines`;
  const eval1 = (script: string, key: string, ...args: (string | number)[]) => send(['EVAL', script, '1', key, ...args.map(String)]);
  const encode = (e: LedgerEntry) => JSON.stringify([e.client, e.sessionId]);
  return {
    async reserve(client, member, max, expiresAt) {
      return Number(await eval1(RESERVE, run(client), Date.now(), max, expiresAt, member)) === 1;
    },
    async rename(client, from, to, expiresAt) {
      await eval1(RENAME, run(client), from, expiresAt, to, Date.now());
    },
    async release(client, member) {
      await send(['ZREM', run(client), member]);
    },
    async members(client) {
      const out = await send(['ZRANGEBYSCORE', run(client), String(Date.now() + 1), '+inf']);
      return Array.isArray(out) ? out.map(String) : [];
    },
    async schedule(entry, at) {
      await send(['ZADD', deadlines, String(at), encode(entry)]);
    },
    async unschedule(entry) {
      await send(['ZREM', deadlines, encode(entry)]);
    },
    async due(now) {
      const out = await eval1(DUE, deadlines, now);
      if (!Array.isArray(out)) return [];
      return out.flatMap((m) => {
        try {
          const [client, sessionId] = JSON.parse(String(m)) as [string, string];
          return [{ client, sessionId }];
        } catch {
          return [];
        }
      });
    },
    async markEnded(sessionId, reason, ttlMs) {
      await send(['SET', `${prefix}ended:${sessionId}`, reason, 'PX', String(Math.max(1, Math.round(ttlMs)))]);
    },
    async endedReason(sessionId) {
      const v = await send(['GET', `${prefix}ended:${sessionId}`]);
      return v === null || v === undefined ? undefined : String(v);
    },
  };
}

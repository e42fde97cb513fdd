import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import express from 'express';
import { createClient } from 'redis';
import {
  createAvatarHandler,
  createAvatarProxy,
  memoryStore,
  redisStore,
  type AvatarProxyOptions,
  type ProxyStore,
} from '../../src/server/index';
import { ALICE, countingFetch, LIVEKIT, listen, SECRET, setFaults, startEmulator, startRedis, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * Issue 36 items 1 and 7, on both adapters with the real local service: a create the service refuses gives back
 * what it reserved (one visitor cannot lock every visitor out), the create windows slide (no boundary lets twice
 * the budget through), and a create refused at a running ceiling costs the service (almost) nothing.
 */
let emulator: Emulator;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  emulator = await startEmulator(5);
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await emulator.close();
});

type Extra = Partial<AvatarProxyOptions<never>>;
type Send = (body: unknown, ip: string) => Promise<Response>;
const counter = countingFetch();
const base = (extra: Extra) => ({
  upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: counter.fetch },
  sessionSecret: SECRET,
  livekit: LIVEKIT,
  rateLimit: false as const,
  logger: quietLogger(),
  ...extra,
});
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const adapters: Record<string, (extra: Extra) => Promise<Send>> = {
  async express(extra) {
    const app = express();
    app.use('/api/avatar', createAvatarProxy({ ...base(extra), trustProxy: ['loopback'] } as AvatarProxyOptions<express.Request>));
    const l = await listen(app);
    closers.push(l.close);
    return (body, ip) => {
      const init = json(body);
      return fetch(`${l.url}/api/avatar/sessions`, { ...init, headers: { ...(init.headers as object), 'x-forwarded-for': ip } });
    };
  },
  async fetch(extra) {
    const handler = createAvatarHandler({ ...(base(extra) as AvatarProxyOptions<Request>), basePath: '/api/avatar' });
    return (body, ip) => handler(new Request('https://proxy.example/api/avatar/sessions', json(body)), { remoteAddress: ip });
  },
};
const valid = { agent_id: 'agent-demo', transport_type: 'rtc-a' };
const unknown = { agent_id: 'no-such-agent', transport_type: 'rtc-a' };

describe.each(Object.keys(adapters))('%s adapter', (name) => {
  const make = adapters[name]!;

  it("creates the service refused (404) give back the owner's and the client's window", async () => {
    const send = await make({ sessionLimits: { createsPerWindow: 3 }, ownerLimits: { createsPerWindow: 3 } });
    for (let i = 0; i < 5; i++) expect((await send(unknown, '198.51.100.1')).status).toBe(404);
    // Another visitor, and the same one, still start sessions.
    expect((await send(valid, '198.51.100.2')).status).toBe(201);
    expect((await send(valid, '198.51.100.1')).status).toBe(201);
    expect((await send(valid, '198.51.100.1')).status).toBe(201);
    // Sessions made are counted: the owner's window of 3 is full now.
    const full = await send(valid, '198.51.100.3');
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('a create refused for lack of credits (402) gives back the minutes it was charged', async () => {
    const send = await make({ ownerLimits: { minutesPerDay: 2 }, sessionLimits: { maxDurationMs: 60_000 } });
    emulator.state.setCredits(ALICE, 0);
    for (let i = 0; i < 3; i++) expect((await send(valid, `198.51.100.${i + 1}`)).status).toBe(402);
    emulator.state.setCredits(ALICE, 100);
    expect((await send(valid, '198.51.100.9')).status).toBe(201);
  });

  it('20 creates refused at the running ceiling cost the service at most one count, not a status call each', async () => {
    await setFaults(emulator.url, { latencyMs: 0 });
    const send = await make({ ownerLimits: { maxConcurrent: 2 } });
    expect((await send(valid, '198.51.100.1')).status).toBe(201);
    expect((await send(valid, '198.51.100.2')).status).toBe(201);
    const before = counter.calls;
    for (let i = 0; i < 20; i++) expect((await send(valid, `203.0.113.${i + 1}`)).status).toBe(503);
    const calls = counter.paths.slice(before);
    // One list of the account's sessions (one page here); no per-session status call.
    expect(calls).toEqual(['GET /liveai/sessions']);
  });
});

const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

describe('the create windows slide: no window boundary lets twice the budget through', () => {
  const HOUR = 3600_000;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let client: ReturnType<typeof createClient> | undefined;
  afterAll(async () => {
    await client?.quit();
    redis?.proc.kill('SIGKILL');
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const stores: Record<string, () => Promise<ProxyStore>> = {
    memoryStore: async () => memoryStore(),
    redisStore: async () => {
      redis ??= await startRedis();
      if (!client) {
        client = createClient({ url: redis.url });
        await client.connect();
      }
      const c = client;
      return redisStore({ sendCommand: (args) => c.sendCommand(args), prefix: `slide${Math.random()}:` });
    },
  };
  it.each(Object.keys(stores).filter((s) => s === 'memoryStore' || hasRedis))('%s', async (kind) => {
    const { ledger } = await stores[kind]!();
    const limits = {
      maxConcurrent: 100,
      createsPerWindow: 100,
      createWindowMs: HOUR,
      owner: { createsPerWindow: 3, createWindowMs: HOUR, minutesCharge: 0 },
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    // Just before an hour's boundary, then just after it.
    const boundary = Math.ceil(Date.now() / HOUR) * HOUR + HOUR;
    vi.setSystemTime(boundary - 10);
    const far = boundary + 10 * HOUR;
    for (let i = 0; i < 3; i++) expect(await ledger.reserve(`c${i}`, `m${i}`, far, limits)).toBe('ok');
    vi.setSystemTime(boundary + 10);
    const refused = await ledger.reserve('c9', 'm9', far, limits);
    expect(refused).toMatchObject({ refused: 'owner_creates' });
    // It says when the oldest create leaves the window.
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBe(HOUR - 20);
    vi.setSystemTime(boundary - 10 + HOUR + 1);
    expect(await ledger.reserve('c9', 'm10', far, limits)).toBe('ok');
  });
});

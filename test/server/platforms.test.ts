import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAvatarHandler, memoryStore, type AvatarHandlerOptions, type Logger } from '../../src/server/index';
import { createServiceClient } from '../../src/server/service/client';
import { ALICE, LIVEKIT, SECRET, serviceId, setFaults, startEmulator, waitFor, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The proxy where functions stop after their response (Vercel, Netlify, AWS Lambda, …), run here in Node with the
 * platform's marker variable set: the warnings that name the options to set, the `waitUntil` option, and the sweep
 * a scheduler calls (`/sweep` with `sweepSecret`, `handler.sweep()`).
 */
let emulator: Emulator;
const service = () => createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });

beforeAll(async () => {
  emulator = await startEmulator(5);
});
afterAll(async () => {
  await emulator.close();
});
afterEach(() => {
  delete process.env.VERCEL;
});

function capture() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: object, msg?: string) => void lines.push({ level, msg: msg ?? '' });
  const logger: Logger = { child: () => ({ info: at('info'), warn: at('warn'), error: at('error') }) };
  return { lines, logger, warnings: () => lines.filter((l) => l.level === 'warn').map((l) => l.msg) };
}

const handlerOf = (extra: Partial<AvatarHandlerOptions> = {}) =>
  createAvatarHandler({
    basePath: '/api',
    upstream: { baseUrl: emulator.url, apiKey: ALICE },
    sessionSecret: SECRET,
    livekit: LIVEKIT,
    rateLimit: false,
    logger: quietLogger(),
    ...extra,
  });
const create = (): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
});
const peer = { remoteAddress: '198.51.100.7' };
const url = (path: string) => `https://proxy.example/api${path}`;

describe('on a platform that stops functions after their response (VERCEL set)', () => {
  it('warns once at creation about the memory store and once on the first request about waitUntil, naming the options', async () => {
    process.env.VERCEL = '1';
    const log = capture();
    const handler = handlerOf({ logger: log.logger });
    expect(log.warnings()).toHaveLength(1);
    expect(log.warnings()[0]).toMatch(/on Vercel each instance has its own memory.*Set the store option.*redisStore/);
    await handler(new Request(url('/transport')), peer);
    await handler(new Request(url('/transport')), peer);
    expect(log.warnings(), JSON.stringify(log.lines)).toHaveLength(2);
    expect(log.warnings()[1]).toMatch(/set the waitUntil option/);

    // With a store and waitUntil set: silent.
    const quiet = capture();
    const configured = handlerOf({ logger: quiet.logger, store: memoryStore(), waitUntil: () => {} });
    await configured(new Request(url('/transport')), peer);
    expect(quiet.warnings()).toEqual([]);

    // On a long-lived server: silent.
    delete process.env.VERCEL;
    const node = capture();
    await handlerOf({ logger: node.logger })(new Request(url('/transport')), peer);
    expect(node.warnings()).toEqual([]);
  });

  it('hands the end of a create answered after the time limit to waitUntil; once it settles the session is over', async () => {
    process.env.VERCEL = '1';
    const kept: Promise<unknown>[] = [];
    const handler = handlerOf({
      upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 200 },
      store: memoryStore(),
      waitUntil: (p) => void kept.push(p),
    });
    const before = new Set((await service().listSessions({ limit: 100 })).sessions.map((s) => s.session_id));
    await setFaults(emulator.url, { latencyMs: 600 });
    try {
      const res = await handler(new Request(url('/sessions'), create()), peer);
      expect(res.status).toBe(504);
      expect(kept.length).toBeGreaterThan(0);
      await Promise.all(kept);
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
    }
    const made = (await service().listSessions({ limit: 100 })).sessions.filter((s) => !before.has(s.session_id));
    expect(made).toHaveLength(1);
    expect((await service().getSession(made[0]!.session_id)).session_status).toBe('COMPLETED');
  });

  it('ends sessions past their maximum length only when the scheduler calls /sweep with the secret (or handler.sweep())', async () => {
    process.env.VERCEL = '1';
    expect(() => handlerOf({ sweepSecret: 'short' })).toThrow(/sweepSecret: must be a string of at least 16 characters/);
    const closed = handlerOf({ store: memoryStore() });
    expect((await closed(new Request(url('/sweep'), { method: 'POST' }), peer)).status).toBe(404);

    const secret = 'cron-secret-0123456789abcdef';
    const handler = handlerOf({ store: memoryStore(), sweepSecret: secret, sessionLimits: { maxDurationMs: 1000 } });
    const start = async () => {
      const res = await handler(new Request(url('/sessions'), create()), peer);
      expect(res.status).toBe(201);
      return (await res.json()) as { session_id: string; session_expires_at: string };
    };
    const a = await start();
    await waitFor(async () => (Date.now() > Date.parse(a.session_expires_at) ? true : undefined));
    // No timer runs on such a platform: the session is still running at the service until a sweep.
    expect((await service().getSession(await serviceId(a.session_id))).session_status).not.toBe('COMPLETED');
    const sweep = (auth?: string, method = 'GET') =>
      handler(new Request(url('/sweep'), { method, headers: auth ? { authorization: auth } : {} }), peer);
    expect((await sweep()).status).toBe(401);
    expect((await sweep('Bearer cron-secret-0123456789abcdeX')).status).toBe(401);
    expect((await sweep(`Basic ${secret}`)).status).toBe(401);
    const ok = await sweep(`Bearer ${secret}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true });
    expect((await service().getSession(await serviceId(a.session_id))).session_status).toBe('COMPLETED');

    // The same from code.
    const b = await start();
    await waitFor(async () => (Date.now() > Date.parse(b.session_expires_at) ? true : undefined));
    await handler.sweep();
    expect((await service().getSession(await serviceId(b.session_id))).session_status).toBe('COMPLETED');
  });
});

describe('on Vercel without the waitUntil option', () => {
  const VERCEL_CONTEXT = Symbol.for('@vercel/request-context');
  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[VERCEL_CONTEXT];
  });

  it("uses the waitUntil of Vercel's request context (as @vercel/functions does), and does not warn", async () => {
    process.env.VERCEL = '1';
    const kept: Promise<unknown>[] = [];
    (globalThis as Record<symbol, unknown>)[VERCEL_CONTEXT] = { get: () => ({ waitUntil: (p: Promise<unknown>) => void kept.push(p) }) };
    const log = capture();
    const handler = handlerOf({
      logger: log.logger,
      store: memoryStore(),
      upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 200 },
    });
    await setFaults(emulator.url, { latencyMs: 600 });
    try {
      expect((await handler(new Request(url('/sessions'), create()), peer)).status).toBe(504);
      expect(kept.length).toBeGreaterThan(0);
      await Promise.all(kept);
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
    }
    expect(log.warnings().filter((w) => /waitUntil|store/.test(w))).toEqual([]);
  });
});

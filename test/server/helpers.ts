import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import express, { type Express, type Request } from 'express';
import { createClient } from 'redis';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import WebSocket from 'ws';
import { createEmulator } from '../../src/emulator/index';
import { createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';
import { createSealer } from '../../src/server/session/handle';
import { createServiceClient } from '../../src/server/service/client';
import { quietLogger } from '../setup/quiet-logger';

/** Built-in emulator seed (docs/emulator.md): alice owns agent-demo, bob agent-bob, broke has 0 credits. */
export const ALICE = 'dev-key-alice';
export const SECRET = 'proxy-test-session-secret-0123456789-abcdef';
/** A distinctive LiveKit secret, to prove it never leaks. */
export const LIVEKIT = { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'lk-secret-Zq9wX4vK7pL2mN8bR5tY' };

export type Emulator = Awaited<ReturnType<typeof createEmulator>>;

/** The real local service, without media (sessions go ACTIVE without a room). */
export function startEmulator(queueMs = 30): Promise<Emulator> {
  return createEmulator({ port: 0, media: false, queueMs });
}

/** A fetch that counts the calls the proxy makes to the service. */
export function countingFetch() {
  const state = { calls: 0, paths: [] as string[] };
  const f: typeof fetch = (input, init) => {
    state.calls += 1;
    state.paths.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  return Object.assign(state, { fetch: f });
}

/** Options of a proxy in front of `emulator`, rate and spending limits (the owner's ceilings too) off unless given. */
export function proxyOptions(emulatorUrl: string, extra: Partial<AvatarProxyOptions<Request>> = {}): AvatarProxyOptions<Request> {
  const { upstream, ...rest } = extra;
  return {
    upstream: { baseUrl: emulatorUrl, apiKey: ALICE, ...upstream },
    sessionSecret: SECRET,
    livekit: LIVEKIT,
    rateLimit: false,
    sessionLimits: false,
    ownerLimits: false,
    logger: quietLogger(),
    ...rest,
  };
}

/** An Express app with the proxy mounted at `/api/avatar`, as a user would write it. */
export function proxyApp(options: AvatarProxyOptions<Request>): Express {
  const app = express();
  app.use('/api/avatar', createAvatarProxy(options));
  return app;
}

/** Listens on 127.0.0.1 on a free port. */
export async function listen(app: Express): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sets the emulator's fault injection (POST /__emulator/faults). */
export async function setFaults(emulatorUrl: string, faults: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${emulatorUrl}/__emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`faults: HTTP ${res.status} ${await res.text()}`);
}

/** A real PNG of `width`×`height` px made with sharp. */
export function png(width = 368, height = 560): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const l = await listen(express());
  const port = Number(new URL(l.url).port);
  await l.close();
  return port;
}

/** Polls `check` until it returns a value other than undefined, or throws after `ms`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sealer = createSealer(new TextEncoder().encode(SECRET));
/**
 * The service's session id behind a handle the proxy gave the browser (its `session_id`), for tests that check
 * the session at the service itself. Only the server can do this: it needs the session secret.
 */
export async function serviceId(handle: string): Promise<string> {
  return (await sealer.open(handle)).sessionId;
}

/**
 * Opens a WebSocket to `url`: `{status: 101, ws}` once open, or the HTTP status and `{detail}` of a refused upgrade
 * (-1 when the connection failed).
 */
export function openWebSocket(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; ws?: WebSocket; detail?: string }>((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, detail: (JSON.parse(text) as { detail: string }).detail }));
    });
    ws.once('error', () => resolve({ status: -1 }));
  });
}

/** A real `redis-server` on a free loopback port, no persistence; `port` to restart it on the same one. */
export async function startRedis(port?: number): Promise<{ proc: ChildProcess; url: string; port: number }> {
  port ??= await closedPort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
  return { proc, url: `redis://127.0.0.1:${port}`, port };
}

/**
 * Ends every running session of `apiKey`'s account at the service (through its own API): the owner's ceiling
 * counts them all, so a test that checks it starts from none.
 */
export async function endRunning(emulatorUrl: string, apiKey = ALICE): Promise<void> {
  const service = createServiceClient({ baseUrl: emulatorUrl, apiKey });
  for (let page = 1; ; page++) {
    const { sessions, pagination } = await service.listSessions({ page, limit: 100 });
    for (const s of sessions)
      if (s.session_status === 'QUEUED' || s.session_status === 'ACTIVE') await service.control(s.session_id, { event: 'terminate' });
    if (!pagination.has_more) return;
  }
}

/** Whether `redis-server` is installed (scripts/test.mjs installs it before the tiers that need it). */
export const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A file's local service and real Redis, from its module scope: one of each for the file (Redis only when
 * installed; with CI=true a missing one fails the file), and around each test: no running session of alice's
 * account at the service and an empty Redis before it (the owner's ceiling counts every running session), the
 * servers the test pushed on `closers` closed and its sessions ended after it. `credits`: alice's credits before
 * each test. The fields are set once the file's `beforeAll` has run.
 */
export function useEmulatorAndRedis(options: { queueMs?: number; credits?: number } = {}) {
  if (!hasRedis && (process.env.CI === 'true' || process.env.CI === '1'))
    throw new Error('redis-server is missing: CI installs it (apt-get install -y redis-server)');
  const env = {
    emulator: undefined as unknown as Emulator,
    redis: undefined as { proc: ChildProcess; url: string; port: number } | undefined,
    rc: undefined as ReturnType<typeof createClient> | undefined,
    closers: [] as (() => Promise<void>)[],
  };
  beforeAll(async () => {
    env.emulator = await startEmulator(options.queueMs);
    if (!hasRedis) return;
    env.redis = await startRedis();
    env.rc = createClient({ url: env.redis.url });
    env.rc.on('error', () => {});
    await env.rc.connect();
  });
  afterAll(async () => {
    await env.rc?.quit().catch(() => {});
    env.redis?.proc.kill('SIGKILL');
    await env.emulator?.close();
  });
  beforeEach(async () => {
    await endRunning(env.emulator.url);
    if (options.credits !== undefined) env.emulator.state.setCredits(ALICE, options.credits);
    await env.rc?.sendCommand(['FLUSHALL']);
  });
  afterEach(async () => {
    for (const close of env.closers.splice(0)) await close();
    await endRunning(env.emulator.url);
  });
  return env;
}

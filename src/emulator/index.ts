/**
 * liveai-kit/emulator: `createEmulator(options)`, the local avatar service, for tests and development. Its command
 * line ships as the `liveai-emulator` package (`npx liveai-emulator`). Node only; needs express, multer, ws,
 * sharp, livekit-server-sdk and (with media on) `@livekit/rtc-node`.
 * @module liveai-kit/emulator
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { renderAssets } from './assets';
import type { EmulatorContext } from './context';
import { FaultsPatchSchema, type Faults } from './faults';
import { AvatarPool } from './avatar-pool';
import { createApp } from './http/app';
import { finish } from './lifecycle';
import { resolveOptions, type EmulatorOptions } from './options';
import { sessionView, type EmulatorSessionView } from './routes/internal';
import { loadSeed, type Seed } from './seed';
import { Store, type LoggedEvent } from './store';
import { attachWebSockets } from './ws';

export type { EmulatorOptions, LivekitConfig } from './options';
export type { EmulatorLogger } from './logger';
export type { ImageHosts } from './download';
export type { Faults } from './faults';
export type { EmulatorSessionView } from './routes/internal';
export type { Seed, SeedInput } from './seed';
export type { LoggedEvent } from './store';
export type { NeutralProvider, ProviderLabels, ProviderLabelsInput } from '../core/internal';
export type { SessionStatus, TransportType } from '../core/index';
export { BUILTIN_SEED, SeedSchema } from './seed';
export { buildOpenApi, type OpenApiDocument } from './openapi';

/**
 * Test hooks of a running emulator (the same data as the `/__emulator` routes).
 * @public
 */
export interface EmulatorState {
  /** The loaded seed. */
  readonly seed: Seed;
  /** Secret-free view of a session (status, image, demeanour, actions, websocket stats…), or undefined. */
  session(id: string): EmulatorSessionView | undefined;
  /** Every event emitted for a session, in order. */
  events(id: string): LoggedEvent[];
  /** Current credit balance of an account, credits. */
  credits(apiKey: string): number | undefined;
  /** Sets an account's credit balance, credits. */
  setCredits(apiKey: string, credits: number): void;
  /** Current fault settings (a copy). */
  faults(): Faults;
  /** Changes fault settings; throws on invalid values. */
  setFaults(patch: Partial<Faults>): Faults;
  /** Ends a session `FAILED`; false when it had already ended or does not exist. */
  fail(id: string): boolean;
  /** Ends a session `TIMED_OUT`; false when it had already ended or does not exist. */
  timeout(id: string): boolean;
  /**
   * Kills the process that runs this session's avatar, as a crash would: every session whose avatar it ran ends
   * `FAILED` (`end_reason` `the avatar lost the room: the avatar process exited (SIGKILL)`); the next session
   * starts a fresh process. False when the session has no avatar in a process (media off, `avatarProcesses: 0`).
   */
  crashAvatarProcess(id: string): boolean;
}

/**
 * A running emulator.
 * @public
 */
export interface Emulator {
  /** `http://host:port` */
  url: string;
  app: Express;
  server: Server;
  state: EmulatorState;
  /** Ends every session, closes sockets and the server. Idempotent. */
  close(): Promise<void>;
}

const hostForUrl = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/**
 * Starts the local avatar service and resolves once it listens.
 * @throws LiveAiError `invalid_request` for invalid options or seed; the listen error (e.g. EADDRINUSE) otherwise.
 * @public
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const opts = resolveOptions(options);
  const seed = await loadSeed(opts.seed);
  const store = new Store(seed);
  const assets = await renderAssets(seed.accounts.flatMap((a) => a.agents.map((g) => g.image_url)));
  let url = `http://${hostForUrl(opts.host)}:${opts.port}`;
  const ctx: EmulatorContext = { options: opts, store, faults: { ...opts.faults }, assets, baseUrl: () => url };
  if (opts.media && opts.avatarProcesses > 0) {
    ctx.avatars = new AvatarPool(opts.avatarProcesses, opts.logger);
    ctx.avatars.warm();
  }
  const app = createApp(ctx);
  const server = createServer(app);
  const wss = attachWebSockets(ctx, server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  url = `http://${hostForUrl(opts.host)}:${(server.address() as AddressInfo).port}`;
  opts.logger.info({ url }, 'emulator listening');
  let closing: Promise<void> | null = null;
  const end = (id: string, status: 'FAILED' | 'TIMED_OUT') => {
    const rec = store.sessions.get(id);
    return rec ? finish(ctx, rec, status, 'forced by a test hook') : false;
  };
  const state: EmulatorState = {
    seed,
    session: (id) => {
      const rec = store.sessions.get(id);
      return rec && sessionView(ctx, rec);
    },
    events: (id) => [...(store.sessions.get(id)?.events ?? [])],
    credits: (key) => store.accounts.get(key)?.credits,
    setCredits: (key, credits) => {
      const a = store.accounts.get(key);
      if (a) a.credits = credits;
    },
    faults: () => ({ ...ctx.faults }),
    setFaults: (patch) => Object.assign(ctx.faults, FaultsPatchSchema.parse(patch)),
    fail: (id) => end(id, 'FAILED'),
    timeout: (id) => end(id, 'TIMED_OUT'),
    crashAvatarProcess: (id) => ctx.avatars?.crashHostOf(store.sessions.get(id)?.media ?? null) ?? false,
  };
  const close = () =>
    (closing ??= (async () => {
      for (const rec of store.sessions.values()) finish(ctx, rec, 'COMPLETED', 'emulator closed');
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), ctx.avatars?.close()]);
    })());
  return { url, app, server, state, close };
}

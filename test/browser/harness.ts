import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
// @ts-expect-error -- a plain ESM helper without type declarations (scripts/impair)
import { startImpairedLink } from '../../scripts/impair/index.mjs';
import { createEmulator } from '../../src/emulator/index';
import { startPageServer } from './page-server';
import { launchEngine, type Engine, type EngineBrowser } from './driver';

export const ROOT = resolve(__dirname, '../..');
export const API_KEY = 'dev-key-alice';
export const SESSION_SECRET = 'browser-suite-session-secret-0123456789abcdef';

export { CHROMIUM_ARGS } from './chromium-args';
export { startPageServer } from './page-server';
import { CHROMIUM_ARGS } from './chromium-args';

export interface Stack {
  /** http://127.0.0.1:PORT — test pages under /test/browser/pages/, the proxy under /api/avatar. */
  baseUrl: string;
  emulatorUrl: string;
  emulator: Awaited<ReturnType<typeof createEmulator>>;
  close(): Promise<void>;
}

/**
 * Starts the real local service (media on, joining the suite's LiveKit server), the real proxy and a Vite
 * dev server for the test pages, all on 127.0.0.1 inside the namespace.
 */
export async function startStack(
  options: { queueMs?: number; imageChangeMs?: number; media?: boolean; providerLabels?: string; answerWhenActive?: boolean } = {},
): Promise<Stack> {
  const livekit = { url: inject('livekitUrl'), apiKey: inject('livekitApiKey'), apiSecret: inject('livekitApiSecret') };
  const emulator = await createEmulator({
    port: 0,
    media: options.media ?? true,
    queueMs: options.queueMs ?? 300,
    imageChangeMs: options.imageChangeMs ?? 600,
    // The image-swap test hosts uploads on a loopback server, as a developer's machine would.
    imageHosts: 'loopback',
    livekit,
    providerLabels: options.providerLabels,
    answerWhenActive: options.answerWhenActive,
  });
  const pages = await startPageServer({
    upstream: { baseUrl: emulator.url, apiKey: API_KEY },
    sessionSecret: SESSION_SECRET,
    livekit,
    admin: () => true,
    providerLabels: options.providerLabels,
  });
  return {
    baseUrl: pages.baseUrl,
    emulatorUrl: emulator.url,
    emulator,
    async close() {
      await pages.close();
      await emulator.close();
    },
  };
}

/** Launches Debian Chromium with a fresh profile and camera/microphone granted. */
export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Playwright gives every launch a fresh, empty temporary --user-data-dir of its own.
    args: CHROMIUM_ARGS,
  });
  const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
  await context.grantPermissions(['camera', 'microphone']);
  await context.addInitScript(collectPeerConnections);
  return { browser, context };
}

/** An init script: collects every RTCPeerConnection of the page in `window.__pcs`, so the test can read getStats(). */
export function collectPeerConnections(): void {
  const w = window as unknown as { __pcs: RTCPeerConnection[]; RTCPeerConnection: typeof RTCPeerConnection };
  w.__pcs = [];
  const Orig = w.RTCPeerConnection;
  w.RTCPeerConnection = class extends Orig {
    constructor(config?: RTCConfiguration) {
      super(config);
      w.__pcs.push(this);
    }
  } as typeof RTCPeerConnection;
}

/** This private namespace's own address: what a browser behind the impaired link reaches us at. */
const NAMESPACE_HOST = '10.203.0.1';

/** A plain TCP forwarder from NAMESPACE_HOST:<new port> to 127.0.0.1:`port` (loopback is not reachable over the link). */
async function forwardFromNamespace(port: number): Promise<{ port: number; close(): void }> {
  const open = new Set<Socket>();
  const server = createServer((c) => {
    const up = connect(port, '127.0.0.1');
    c.pipe(up).pipe(c);
    const close = () => (c.destroy(), up.destroy());
    c.on('error', close);
    up.on('error', close);
    for (const s of [c, up]) {
      open.add(s);
      s.on('close', () => open.delete(s));
    }
  });
  await new Promise<void>((r) => server.listen(0, NAMESPACE_HOST, r));
  return {
    port: (server.address() as AddressInfo).port,
    // Connections still open would keep the page server (on the other side) from closing.
    close() {
      server.close();
      open.forEach((s) => s.destroy());
    },
  };
}

/** A Chromium behind the impaired link; see `behindImpairedLink`. */
export interface ImpairedBrowser {
  browser: Browser;
  /** The page server's origin as that browser reaches it. */
  base: string;
  /**
   * A page in a new context whose own files (scripts, styles, images: everything of `base` outside /api/ but the
   * document) are fetched by the test process off the link, as an app's cached or CDN-served files would arrive. The proxy's
   * calls, LiveKit's signalling and the media still cross the link: loading the dev server's hundred modules over
   * 300 ms of round trip and 8 % loss took 17–30 s and is not what these tests are about.
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** The app's server creates a room; resolves with the session to attach to from behind the link. */
  room(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * A Chromium behind the impaired link (scripts/impair, as the bench uses it: this kernel has no netem), for tests
 * inside the private namespace (LIVEAI_IN_NETNS=1). The proxy and LiveKit's signalling are reached through plain
 * TCP forwarders on this namespace's address, so every packet of the call crosses the link; pages opened with
 * `newPage` get their own files off the link.
 */
export async function behindImpairedLink(
  stack: Stack,
  link: { delayMs: number; jitterMs: number; loss: number },
): Promise<ImpairedBrowser> {
  const closers: (() => unknown)[] = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await Promise.resolve(c()).catch(() => {});
  };
  try {
    const impaired = await startImpairedLink(link);
    closers.push(() => impaired.close());
    const pages = await forwardFromNamespace(Number(new URL(stack.baseUrl).port));
    const signal = await forwardFromNamespace(7880);
    closers.push(() => (pages.close(), signal.close()));
    const base = `http://${NAMESPACE_HOST}:${pages.port}`;
    const browser = await chromium.launch({
      executablePath: impaired.chromium('/usr/bin/chromium'),
      args: [...CHROMIUM_ARGS, `--unsafely-treat-insecure-origin-as-secure=${base}`],
    });
    closers.push(() => browser.close());
    const room = async () => {
      const res = await fetch(`${stack.baseUrl}/api/avatar/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent_id: 'agent-demo' }),
      });
      if (res.status !== 201) throw new Error(`creating the room answered ${res.status}: ${await res.text()}`);
      return { ...((await res.json()) as object), room_url: `ws://${NAMESPACE_HOST}:${signal.port}`, transport: 'rtc-a' };
    };
    const newPage = async (options?: BrowserContextOptions) => {
      const context = await browser.newContext(options);
      await context.route(
        (url) => url.origin === base && !url.pathname.startsWith('/api/'),
        async (route) =>
          // The document itself crosses the link: a page Chromium did not load from the network counts as public,
          // and its Local Network Access checks would then block the calls to this private address.
          route.request().resourceType() === 'document'
            ? route.continue()
            : route.fulfill({ response: await route.fetch({ url: route.request().url().replace(base, stack.baseUrl) }) }),
      );
      return context.newPage();
    };
    return { browser, base, newPage, room, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Inbound RTP stats of every peer connection on the page: video frames and audio samples. */
export const inboundStatsScript = async () => {
  const w = window as unknown as { __pcs: RTCPeerConnection[] };
  let framesDecoded = 0;
  let frameWidth = 0;
  let frameHeight = 0;
  let totalSamplesReceived = 0;
  for (const pc of w.__pcs) {
    if (pc.connectionState === 'closed') continue;
    const stats = await pc.getStats();
    stats.forEach((s: Record<string, unknown>) => {
      if (s.type !== 'inbound-rtp') return;
      if (s.kind === 'video') {
        framesDecoded += Number(s.framesDecoded ?? 0);
        frameWidth = Math.max(frameWidth, Number(s.frameWidth ?? 0));
        frameHeight = Math.max(frameHeight, Number(s.frameHeight ?? 0));
      }
      if (s.kind === 'audio') totalSamplesReceived += Number(s.totalSamplesReceived ?? 0);
    });
  }
  return { framesDecoded, frameWidth, frameHeight, totalSamplesReceived };
};

/**
 * The usual suite setup: before all tests a stack (startStack) and a browser (launchBrowser); after all, both
 * closed. Returns a holder whose fields are set once `beforeAll` has run.
 */
export function useBrowserStack(options: Parameters<typeof startStack>[0] = {}): {
  stack: Stack;
  browser: Browser;
  context: BrowserContext;
} {
  const env = {} as { stack: Stack; browser: Browser; context: BrowserContext };
  beforeAll(async () => {
    env.stack = await startStack(options);
    Object.assign(env, await launchBrowser());
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.stack?.close();
  });
  return env;
}

/**
 * `useBrowserStack` for the tests that run in every engine with WebRTC: the stack, and `engine` launched through
 * the driver (test/browser/driver.ts), whose pages behave the same in Chromium and Firefox.
 */
export function useEngineStack(
  engine: Engine,
  options: Parameters<typeof startStack>[0] = {},
  launch: Parameters<typeof launchEngine>[1] = {},
): { stack: Stack; browser: EngineBrowser } {
  const env = {} as { stack: Stack; browser: EngineBrowser };
  beforeAll(async () => {
    env.stack = await startStack(options);
    env.browser = await launchEngine(engine, launch);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.stack?.close();
  });
  return env;
}

// Row 5 of `npm run bench` (run with `npx tsx`, inside the network namespace): click "Start call" → first presented
// video frame (requestVideoFrameCallback) on the real LiveKit path, in one Chromium, for these pages:
//   widget    — <AvatarWidget> in a production Vite build (React app);
//   element   — the standalone <liveai-avatar> script (dist/standalone build) on a plain HTML page;
//   bare      — the fair baseline: the fastest page a competent engineer writes with livekit-client's public API
//               (quiet logs, the Room made at load, prepareConnection, attach on TrackSubscribed; bare-page.ts);
//   bareNaive — the quickstart page with livekit-client alone (info logs, Room made on click): informative;
//   bareReact — the fastest public-API page written as a React app (bare-react-page.tsx): informative, what React
//               itself costs a call page (on the lossy link: its settle time, what a React app loads);
//   bareJbt   — (lossy link only) the bare page with liveai-kit's jitterBufferTarget on its receivers: informative.
// Each in two service modes, two local services behind two proxies:
//   as-is   — queue 0, the avatar joins while the browser connects (the create call answers at once);
//   warm    — the create call answers only once the avatar is in the room, publishing (`answerWhenActive`).
// Conditions (--conditions normal,cpu4,lossy; default normal):
//   normal — both modes, every page;
//   cpu4   — Chromium's CPU throttled 4× (CDP Emulation.setCPUThrottlingRate), warm mode: first frame and traced
//            main-thread CPU;
//   lossy  — a second Chromium in an inner network namespace behind the impaired link (scripts/impair: 40 ± 10 ms
//            each way, 2 % loss each way), warm mode: page settle time (navigation → the last page file that arrived
//            before the page went quiet, with the order the files loaded in), first frame, and freezes over --freeze-seconds (20) of
//            playback from the received video's getStats (freezeCount, totalFreezesDuration, the jitter buffer's
//            mean delay);
//   firefox — Firefox ESR (scripts/firefox.mjs: puppeteer-core over WebDriver BiDi, a window in a private Xvfb),
//            warm mode: first frame of the widget, the element and the fair baseline, by the same probe and method.
// Fairness: every page is clicked the same --settle-ms (2000) after it went quiet (no request for 500 ms), and no
// run starts before the previous one's teardown has finished: the service lists no session still QUEUED or ACTIVE
// and no LiveKit room has a participant.
// Runs alternate (every round runs every page in every mode, pages in a shuffled order, seeded so a re-run repeats
// it); round 0 is a dropped warm-up.
// Also the rtc-node client (e2e-node.ts) as an informative lower bound, and updateImage → image_change_complete.
// Flags: --runs N; --modes asIs,warm (normal condition; default both); --marks (the widget's timeline per run);
// --profile (main-thread CPU click → first frame from a Chromium trace, per page, warm mode, normal and cpu4; with
// LIVEAI_BENCH_JS_PROFILE=1 also the top JavaScript self times; with --profile-dir DIR each traced window is written
// to DIR for scripts/bench/profile-window.mjs); --threads (every run traced: each Chromium thread's
// busy ms from the click to the create answer and from there to the first frame, medians per page in `threads`;
// tracing slows the pages, so the times of such a run are not the bench's); --transport rtc-a / --prefetch (widget
// page variants); --only widget,bare; --cold: also `widgetCold`, the widget on a page that registers both
// transports (nothing to predict on a first visit); --jbt MS (bareJbt's jitterBufferTarget, default 200, the target liveai-kit's default 'auto' switches to on a lossy link);
// --memory-minutes N (one long call per page, widget and bare: JS heap after GC, listeners and DOM nodes each minute);
// --link DELAY,JITTER,LOSS (the lossy condition's link; default 40,10,0.02).
// Prints one JSON line: { first: {mode: {page: ms[]}}, afterCreate: {mode: {page: ms[]}} (create answered → first
// frame, the part the page itself decides), imageChange: {widget: ms[], node: ms[]}, node: ms[], profile: {page:
// MainThreadWork[]}, threads, conditions: {cpu4?: {first: {page: ms[]}, profile}, lossy?: {first, settle: {page:
// ms[]}, freezes: {page: Freezes[]}, chain: {page: Resource[]}, link}}, memory? }.
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express from 'express';
import { RoomServiceClient } from 'livekit-server-sdk';
import sharp from 'sharp';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { createEmulator } from '../../src/emulator/index';
import { prng } from '../../src/emulator/media/motion';
import { createAvatarProxy } from '../../src/server/index';
import { nodeRun } from './e2e-node';
import { preloadLiveKitTransport } from './preload-transport';
import { startThreadTrace, startTrace, stopThreadTrace, stopTrace, type MainThreadWork, type ThreadWork } from './trace';
// @ts-expect-error -- plain ESM script without types
import { installLivekit, LIVEKIT_KEYS, startLivekit } from '../livekit.mjs';
// @ts-expect-error -- plain ESM script without types
import { startImpairedLink } from '../impair/index.mjs';
// @ts-expect-error -- plain ESM script without types
import { measureLink } from '../impair/self-test.mjs';
import { CHROMIUM_BASE_ARGS, CHROMIUM_MEDIA_ARGS } from '../chromium.mjs';
import type { Browser as FirefoxBrowser, ElementHandle } from 'puppeteer-core';
// @ts-expect-error -- plain ESM script without types
import { launchFirefox } from '../firefox.mjs';
import { median } from './stats.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const FORCED = arg('--transport');
const PREFETCH = process.argv.includes('--prefetch');
const MARKS = process.argv.includes('--marks');
const PROFILE = process.argv.includes('--profile');
/**
 * --profile-dir DIR: each traced run also writes its click → first frame window (JavaScript profile and main-thread
 * trace events) to DIR, and the pages are built into DIR/app with hidden source maps, for profile-window.mjs.
 */
const PROFILE_DIR = arg('--profile-dir') ? resolve(arg('--profile-dir')!) : undefined;
/** Traced runs per page with --profile (at most --runs). */
const PROFILE_RUNS = 11;
const THREADS = process.argv.includes('--threads');
const RUNS = Number(arg('--runs') || 5);
/** The same pause for every page between "the page went quiet" and the click, ms. */
const SETTLE_MS = Number(arg('--settle-ms') ?? 2000);
/** Playback watched for freezes on the lossy link, s. */
const FREEZE_SECONDS = Number(arg('--freeze-seconds') ?? 20);
/** bareJbt's RTCRtpReceiver.jitterBufferTarget, ms. */
const JBT_MS = Number(arg('--jbt') ?? 200);
const MEMORY_MINUTES = Number(arg('--memory-minutes') ?? 0);
/** The impaired link of the lossy condition: one-way delay ms, ± jitter ms, loss per packet and direction. */
const [LINK_DELAY_MS, LINK_JITTER_MS, LINK_LOSS] = (arg('--link') ?? '40,10,0.02').split(',').map(Number) as [number, number, number];
type PageKind = 'widget' | 'element' | 'bare' | 'bareNaive' | 'bareReact' | 'bareJbt' | 'widgetCold';
type Mode = 'asIs' | 'warm';
type Condition = 'normal' | 'cpu4' | 'lossy' | 'firefox';
const COLD = process.argv.includes('--cold');
const ONLY = arg('--only')?.split(',') as PageKind[] | undefined;
const pagesFor = (all: PageKind[]) => (ONLY ? all.filter((p) => ONLY.includes(p)) : all);
const PAGES = pagesFor(['widget', 'element', 'bare', 'bareNaive', 'bareReact', ...(COLD ? (['widgetCold'] as const) : [])]);
const MODES = (arg('--modes')?.split(',') ?? ['asIs', 'warm']) as Mode[];
const CONDITIONS = (arg('--conditions')?.split(',') ?? ['normal']) as Condition[];
/** The pages of the other conditions (warm mode): ours and the fair baseline; on the lossy link also the prototype. */
const CONDITION_PAGES: Record<Exclude<Condition, 'normal'>, PageKind[]> = {
  cpu4: pagesFor(['widget', 'element', 'bare']),
  lossy: pagesFor(['widget', 'element', 'bare', 'bareJbt', 'bareReact']),
  firefox: pagesFor(['widget', 'element', 'bare']),
};
const CHROMIUM_ARGS = CHROMIUM_BASE_ARGS;
const MEDIA_ARGS = CHROMIUM_MEDIA_ARGS;
/** This namespace's veth address: LiveKit and the page server answer on it, for the browser behind the link too. */
const HOST = '10.203.0.1';

async function face(bg: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="${bg}"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/></svg>`;
  return (await sharp(Buffer.from(svg)).jpeg().toBuffer()).toString('base64');
}

installLivekit({ quiet: true });
const lk = await startLivekit({ bind: ['127.0.0.1', HOST] });
// Rooms are announced at HOST, which both browsers reach (the one behind the impaired link only through it).
const livekit = { url: `ws://${HOST}:7880`, apiKey: LIVEKIT_KEYS.apiKey, apiSecret: LIVEKIT_KEYS.apiSecret };
const rooms = new RoomServiceClient(lk.url.replace(/^ws/, 'http'), livekit.apiKey, livekit.apiSecret);
// imageChangeMs 0: the service's simulated generation delay is left out, the rest of the path is real.
const services = {
  asIs: await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit }),
  warm: await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit, answerWhenActive: true }),
};
const API_KEY = 'dev-key-alice';

/**
 * Resolves once the previous run is torn down: neither service lists a session still QUEUED or ACTIVE (its end call
 * was answered and the service finished it), and no LiveKit room has a participant (the avatar has unpublished and
 * left). Without this wait the next page would connect while that teardown still uses the machine's CPU.
 */
async function tornDown(timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const live = async () => {
    for (const s of Object.values(services)) {
      const res = await fetch(`${s.url}/liveai/sessions?limit=10`, { headers: { 'x-api-key': API_KEY } });
      const { sessions } = (await res.json()) as { sessions: Array<{ session_status: string }> };
      if (sessions.some((x) => x.session_status === 'QUEUED' || x.session_status === 'ACTIVE')) return true;
    }
    return (await rooms.listRooms()).some((r) => r.numParticipants > 0);
  };
  while (await live()) {
    if (Date.now() > deadline) return void process.stderr.write('e2e: a session or room is still live after 15 s; going on\n');
    await new Promise((r) => setTimeout(r, 25));
  }
}
const PROXY: Record<Mode, string> = { asIs: '/api/avatar', warm: '/api/avatar-warm' };
const app = express();
for (const mode of ['asIs', 'warm'] as const) {
  const upstream = { baseUrl: services[mode].url, apiKey: API_KEY };
  app.use(
    PROXY[mode],
    createAvatarProxy({
      upstream,
      sessionSecret: 'bench-e2e-session-secret-0123456789abcdef',
      livekit,
      rateLimit: false,
      sessionLimits: false,
      ownerLimits: false,
    }),
  );
}
// The pages as users ship them: production builds (minified chunks), served statically.
const outDir = await mkdtemp(join(tmpdir(), 'liveai-bench-pages-'));
const pages = resolve(ROOT, 'scripts/bench/pages');
const appDir = PROFILE_DIR ? join(PROFILE_DIR, 'app') : join(outDir, 'app');
await build({
  root: ROOT,
  configFile: false,
  // The widget page as a LiveKit deployment ships it: the transport's chunks hinted in its HTML (preload-transport.ts).
  plugins: [react(), preloadLiveKitTransport()],
  base: '/',
  logLevel: 'error',
  build: {
    outDir: appDir,
    emptyOutDir: true,
    sourcemap: PROFILE_DIR ? 'hidden' : false,
    rollupOptions: { input: ['widget.html', 'bare.html', 'bare-naive.html', 'bare-react.html'].map((f) => resolve(pages, f)) },
  },
});
await build({
  configFile: resolve(ROOT, 'vite.element.config.ts'),
  logLevel: 'error',
  build: { outDir: join(outDir, 'standalone'), emptyOutDir: true },
});
app.use('/standalone', express.static(join(outDir, 'standalone')));
app.get('/bench-pages/probe.js', (_req, res) => res.sendFile(resolve(pages, 'probe.js')));
app.get('/element.html', (_req, res) => res.sendFile(resolve(pages, 'element.html')));
app.use(express.static(appDir));
// On every address of this namespace: 127.0.0.1 for the local browser, HOST for the one behind the impaired link.
const server = await new Promise<import('node:http').Server>((r) => {
  const s = app.listen(0, '0.0.0.0', () => r(s));
});
const port = (server.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;
const URLS: Record<PageKind, string> = {
  widget: '/scripts/bench/pages/widget.html',
  widgetCold: '/scripts/bench/pages/widget.html',
  bare: '/scripts/bench/pages/bare.html',
  bareJbt: '/scripts/bench/pages/bare.html',
  bareNaive: '/scripts/bench/pages/bare-naive.html',
  bareReact: '/scripts/bench/pages/bare-react.html',
  element: '/element.html',
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, ...MEDIA_ARGS],
});
/** The lossy condition: a second Chromium in the inner namespace of the impaired link, and the link's self-test. */
interface Lossy {
  browser: Browser;
  base: string;
  link: { close(): Promise<void> };
  measured: unknown;
}
let lossy: Lossy | undefined;
if (CONDITIONS.includes('lossy')) {
  const link = await startImpairedLink({ delayMs: LINK_DELAY_MS, jitterMs: LINK_JITTER_MS, loss: LINK_LOSS });
  const lossyBase = `http://${HOST}:${port}`;
  lossy = {
    link,
    base: lossyBase,
    measured: await measureLink(link, { probes: 200, intervalMs: 20 }),
    browser: await chromium.launch({
      executablePath: link.chromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
      // Not a loopback address, so not a secure context by itself; the pages are, as served over HTTPS in production.
      args: [...CHROMIUM_ARGS, ...MEDIA_ARGS, `--unsafely-treat-insecure-origin-as-secure=${lossyBase}`],
    }),
  };
  process.stderr.write(`e2e: impaired link up, self-test ${JSON.stringify(lossy.measured)}\n`);
}

/** The firefox condition: Firefox ESR with a window in its own Xvfb display, as the browser tier runs it. */
const firefox: FirefoxBrowser | undefined = CONDITIONS.includes('firefox') ? await launchFirefox({ xvfb: true }) : undefined;

type Probe = {
  marks: Record<string, number>;
  startClickedAt: number | null;
  firstFrameAt: number | null;
  /** When the create call answered (probe.js), performance.now() ms. */
  createAnsweredAt: number | null;
  events: Array<{ at: number; event: { type: string } }>;
  errors: string[];
  session: { updateImage(i: { base64: string }): Promise<void>; sendChat(t: string): Promise<void>; end(): Promise<unknown> } | null;
  end?: () => Promise<unknown>;
  videoStats(): Promise<VideoStats | null>;
};
/** The received video's inbound-rtp statistics (probe.js). */
interface VideoStats {
  freezeCount: number;
  totalFreezesDuration: number;
  framesDecoded: number;
  framesDropped: number;
  packetsLost: number;
  packetsReceived: number;
  jitterBufferDelay: number;
  jitterBufferEmittedCount: number;
  jitterBufferTargetDelay: number;
}
/** Over one playback window: freezes, their total ms, decoded fps, video packets lost, the jitter buffer's mean delay. */
export interface Freezes {
  freezes: number;
  freezeMs: number;
  fps: number;
  packetsLost: number;
  jitterBufferMs: number;
}
/** One file the page loaded before it went quiet: path, start and end (ms since navigation). */
export interface Resource {
  path: string;
  startMs: number;
  endMs: number;
}

async function imageChange(page: Page, image: string): Promise<number> {
  return page.evaluate(async (base64) => {
    const p = (window as unknown as { __bench: Probe }).__bench;
    const t0 = performance.now();
    await p.session!.updateImage({ base64 });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const done = p.events.find((e) => e.at >= t0 && e.event.type === 'image_change_complete');
      if (done) return done.at - t0;
      if (Date.now() > deadline) throw new Error(`no image_change_complete; errors: ${p.errors.join('; ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }, image);
}

const videoStats = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Probe }).__bench.videoStats());

interface RunOptions {
  condition?: Condition;
  image?: string;
  profile?: boolean;
  /** Watch playback this many seconds after the first frame and report its freezes. */
  freezeSeconds?: number;
  /** Keep the call this many minutes, sampling memory each minute. */
  memoryMinutes?: number;
}

/** One page run: load, settle, click Start, wait for the first frame; the ms between them and what else was asked. */
async function pageRun(kind: PageKind, mode: Mode, opts: RunOptions = {}) {
  const condition = opts.condition ?? 'normal';
  const context = await (condition === 'lossy' ? lossy!.browser : browser).newContext({ viewport: { width: 900, height: 820 } });
  await context.grantPermissions(['camera', 'microphone']);
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`[${kind}/${mode}] page error: ${e.message}\n`));
  page.on('response', (r) => r.status() >= 400 && process.stderr.write(`[${kind}/${mode}] ${r.status()} ${r.url()}\n`));
  try {
    if (condition === 'cpu4') await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const query = new URLSearchParams({
      proxy: PROXY[mode],
      ...(kind === 'widget' && FORCED ? { transport: FORCED } : {}),
      ...(kind === 'widget' && PREFETCH ? { prefetch: '1' } : {}),
      ...(MARKS ? { marks: '1' } : {}),
      ...(kind === 'widgetCold' ? { cold: '1' } : {}),
      ...(kind === 'bare' || kind === 'bareJbt' || kind === 'bareReact' ? { lk: livekit.url } : {}),
      ...(kind === 'bareJbt' ? { jbt: String(JBT_MS) } : {}),
    });
    await page.goto(`${condition === 'lossy' ? lossy!.base : base}${URLS[kind]}?${query}`);
    const start = page.getByRole('button', { name: /Start call/ });
    await start.waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    if (kind === 'widget' && PREFETCH)
      await page.waitForFunction(() => (window as unknown as { __bench: { prefetched: boolean } }).__bench.prefetched, null, {
        timeout: 60_000,
      });
    // Page settle: navigation → the last page file (document, script, stylesheet) before the page went quiet, and the
    // files in the order they came. Calls (fetch: the proxy, livekit-client's prepareConnection warming its server) are
    // not page files and do not count.
    const { settleMs, resources } = await page.evaluate(() => {
      const list = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (e) => e.initiatorType !== 'fetch' && e.initiatorType !== 'xmlhttprequest',
      );
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const files = list.map((e) => ({ path: new URL(e.name).pathname, startMs: e.startTime, endMs: e.responseEnd }));
      if (nav) files.unshift({ path: new URL(nav.name).pathname, startMs: 0, endMs: nav.responseEnd });
      return { settleMs: Math.max(...files.map((f) => f.endMs)), resources: files.sort((a, b) => a.startMs - b.startMs) };
    });
    // The same pause for every page, as a person clicks a while after the page showed.
    await page.waitForTimeout(SETTLE_MS);
    const cdp = opts.profile ? await startTrace(page, undefined, !!process.env.LIVEAI_BENCH_JS_PROFILE || !!PROFILE_DIR) : undefined;
    // Chromium runs one trace at a time: the --profile runs keep theirs.
    const threadCdp = THREADS && !cdp ? await startThreadTrace(page) : undefined;
    await start.click({ timeout: 60_000 });
    await page
      .waitForFunction(() => (window as unknown as { __bench: Probe }).__bench.firstFrameAt !== null, null, { timeout: 60_000 })
      .catch(async (e: Error) => {
        const errors = await page.evaluate(() => (window as unknown as { __bench: Probe }).__bench.errors.join('; '));
        throw new Error(`${kind}/${mode}: no first frame (${e.message}); page errors: ${errors}`);
      });
    const dump = PROFILE_DIR && join(PROFILE_DIR, `${condition}-${kind}-${Date.now()}.json`);
    const profile: MainThreadWork | undefined = cdp ? await stopTrace(cdp, dump) : undefined;
    const threads: ThreadWork | undefined = threadCdp ? await stopThreadTrace(threadCdp) : undefined;
    const imageChangeMs = opts.image ? await imageChange(page, opts.image) : undefined;
    let freezes: Freezes | undefined;
    if (opts.freezeSeconds) {
      const before = await videoStats(page);
      const t0 = Date.now();
      await page.waitForTimeout(opts.freezeSeconds * 1000); // the playback window itself
      const after = await videoStats(page);
      if (before && after) {
        const d = (k: keyof VideoStats) => after[k] - before[k];
        freezes = {
          freezes: d('freezeCount'),
          freezeMs: d('totalFreezesDuration') * 1000,
          fps: d('framesDecoded') / ((Date.now() - t0) / 1000),
          packetsLost: d('packetsLost'),
          jitterBufferMs: d('jitterBufferEmittedCount') ? (d('jitterBufferDelay') / d('jitterBufferEmittedCount')) * 1000 : NaN,
        };
      }
    }
    const memory = opts.memoryMinutes ? await memoryOverCall(page, opts.memoryMinutes) : undefined;
    const { firstFrameMs, afterCreateMs, marks } = await page.evaluate(() => {
      const p = (window as unknown as { __bench: Probe }).__bench;
      const t0 = p.startClickedAt!;
      const rel = Object.fromEntries(
        Object.entries(p.marks)
          .filter(([, at]) => at >= t0 - 1)
          .map(([k, at]) => [k, Math.round(at - t0)]),
      );
      return {
        firstFrameMs: p.firstFrameAt! - t0,
        afterCreateMs: p.createAnsweredAt === null ? null : p.firstFrameAt! - p.createAnsweredAt,
        marks: { ...rel, 'first frame': Math.round(p.firstFrameAt! - t0) },
      };
    });
    if (afterCreateMs === null) throw new Error(`${kind}/${mode}: the probe saw no create call (POST …/rooms)`);
    await page.evaluate(() => {
      const p = (window as unknown as { __bench: Probe }).__bench;
      return p.session?.end() ?? p.end?.();
    });
    return { firstFrameMs, afterCreateMs, imageChangeMs, marks, profile, threads, settleMs, resources, freezes, memory };
  } finally {
    await context.close();
    await tornDown();
  }
}

/**
 * One page run in Firefox, by the method of `pageRun`: load until the page went quiet (puppeteer's `networkidle0`:
 * no request for 500 ms), the same settle pause, a real click on Start (WebDriver BiDi input), the probe's first frame;
 * then end the call, close the context and wait for the teardown.
 */
async function firefoxRun(kind: PageKind, mode: Mode) {
  const context = await firefox!.createBrowserContext();
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`[firefox ${kind}/${mode}] page error: ${String(e)}\n`));
  try {
    await page.setViewport({ width: 900, height: 820 });
    const query = new URLSearchParams({ proxy: PROXY[mode], ...(kind === 'bare' ? { lk: livekit.url } : {}) });
    await page.goto(`${base}${URLS[kind]}?${query}`, { waitUntil: 'networkidle0', timeout: 30_000 });
    // The Start button, in the page or in the element's shadow root.
    await page.waitForFunction(
      () =>
        [
          ...document.querySelectorAll('button'),
          ...(document.querySelector('liveai-avatar')?.shadowRoot?.querySelectorAll('button') ?? []),
        ].some((b) => /Start call/.test(b.textContent ?? '')),
      { timeout: 30_000, polling: 50 },
    );
    const start = (await page.evaluateHandle(() =>
      [
        ...document.querySelectorAll('button'),
        ...(document.querySelector('liveai-avatar')?.shadowRoot?.querySelectorAll('button') ?? []),
      ].find((b) => /Start call/.test(b.textContent ?? '')),
    )) as ElementHandle<HTMLButtonElement>;
    await new Promise((r) => setTimeout(r, SETTLE_MS)); // the same pause for every page
    await start.click();
    await page
      .waitForFunction(() => (window as unknown as { __bench: Probe }).__bench.firstFrameAt !== null, { timeout: 60_000, polling: 50 })
      .catch(async (e: Error) => {
        const errors = await page.evaluate(() => (window as unknown as { __bench: Probe }).__bench.errors.join('; '));
        throw new Error(`firefox ${kind}/${mode}: no first frame (${e.message}); page errors: ${errors}`);
      });
    const firstFrameMs = await page.evaluate(() => {
      const p = (window as unknown as { __bench: Probe }).__bench;
      return p.firstFrameAt! - p.startClickedAt!;
    });
    await page.evaluate(() => {
      const p = (window as unknown as { __bench: Probe }).__bench;
      return p.session?.end() ?? p.end?.();
    });
    return { firstFrameMs };
  } finally {
    await context.close();
    await tornDown();
  }
}

/** One sample per minute of a call: JS heap used after a forced GC (bytes), event listeners, DOM nodes. */
interface MemorySample {
  minute: number;
  heapBytes: number;
  listeners: number;
  nodes: number;
}
/**
 * Keeps the call `minutes` long; each minute forces a garbage collection and reads Chromium's performance metrics.
 * The widget's session is sent a chat message every 10 s, so the transcript and the service's events keep coming.
 */
async function memoryOverCall(page: Page, minutes: number): Promise<MemorySample[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const samples: MemorySample[] = [];
  const chat = setInterval(
    () =>
      void page
        .evaluate(() => (window as unknown as { __bench: Probe }).__bench.session?.sendChat('Tell me about the weather, please.'))
        .catch(() => {}),
    10_000,
  );
  try {
    for (let minute = 1; minute <= minutes; minute++) {
      await page.waitForTimeout(60_000); // the call itself: a minute of it
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = (n: string) => metrics.find((x) => x.name === n)?.value ?? NaN;
      samples.push({ minute, heapBytes: m('JSHeapUsedSize'), listeners: m('JSEventListeners'), nodes: m('Nodes') });
      process.stderr.write(`e2e memory minute ${minute}: ${JSON.stringify(samples.at(-1))}\n`);
    }
  } finally {
    clearInterval(chat);
    await cdp.detach();
  }
  return samples;
}

/** Per page and thread name: the median busy ms before and after the create answer, busiest first. */
function threadMedians(byPage: Record<string, ThreadWork[]>): Record<string, Record<string, [number, number]>> {
  return Object.fromEntries(
    Object.entries(byPage).map(([page, runs]) => {
      const names = [...new Set(runs.flatMap((r) => Object.keys(r)))];
      const at = (n: string, k: 0 | 1) => Math.round(10 * median(runs.map((r) => r[n]?.[k] ?? 0))) / 10;
      const rows = names.map((n): [string, [number, number]] => [n, [at(n, 0), at(n, 1)]]);
      const total = ([, [a, b]]: [string, [number, number]]) => a + b;
      return [page, Object.fromEntries(rows.filter((r) => total(r) >= 0.5).sort((x, y) => total(y) - total(x)))];
    }),
  );
}

/** Seeded, so the run order is the same on every run of the bench. */
const random = prng(0x9e3779b9);
/** Fisher–Yates with `random`. */
const shuffled = <T>(items: readonly T[]): T[] => {
  const a = [...items];
  for (let k = a.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [a[k], a[j]] = [a[j]!, a[k]!];
  }
  return a;
};

const timeline = (marks: Record<string, number>) =>
  Object.entries(marks)
    .sort((a, b) => a[1] - b[1])
    .map(([k, v]) => `${k} +${v}`)
    .join(', ');
const first: Record<Mode, Record<string, number[]>> = { asIs: {}, warm: {} };
const afterCreate: Record<Mode, Record<string, number[]>> = { asIs: {}, warm: {} };
const imageChanges: { widget: number[]; node: number[] } = { widget: [], node: [] };
const nodeFirst: number[] = [];
const profile: Record<string, MainThreadWork[]> = {};
const threads: Record<string, ThreadWork[]> = {};
interface ConditionResult {
  first: Record<string, number[]>;
  profile?: Record<string, MainThreadWork[]>;
  settle?: Record<string, number[]>;
  freezes?: Record<string, Freezes[]>;
  chain?: Record<string, Resource[]>;
  link?: unknown;
}
const conditions: Partial<Record<Condition, ConditionResult>> = {};
let memory: Record<string, MemorySample[]> | undefined;

/** Traced runs, separate from the timed ones (tracing slows the page down): warm mode, every page, alternating. */
async function profiled(kinds: PageKind[], condition: Condition, into: Record<string, MainThreadWork[]>) {
  // Eleven of them: with five, one page's median moved by ±40 ms between bench runs.
  for (let i = 0; i < Math.min(RUNS, PROFILE_RUNS); i++) {
    for (const kind of kinds.map((_, k) => kinds[(k + i) % kinds.length]!)) {
      const r = await pageRun(kind, 'warm', { profile: true, condition });
      (into[kind] ??= []).push(r.profile!);
      const p = r.profile!;
      process.stderr.write(
        `e2e profile ${condition} ${i} ${kind}: main-thread CPU ${p.cpuMs.toFixed(0)} ms (wall ${p.busyMs.toFixed(0)} ms) of ${p.windowMs.toFixed(0)} ms (compile+eval ${p.compileEvalMs.toFixed(0)}, other script ${p.scriptMs.toFixed(0)}, style+layout ${p.styleLayoutMs.toFixed(0)})\n`,
      );
    }
  }
}

try {
  if (CONDITIONS.includes('normal')) {
    for (let i = 0; i <= RUNS; i++) {
      const image = await face(`hsl(${(i * 67) % 360},50%,70%)`);
      const line: string[] = [];
      for (const mode of i % 2 ? [...MODES].reverse() : MODES) {
        // A fresh order per round and mode: no page always runs first, or always right after the same other page.
        for (const kind of shuffled(PAGES)) {
          const r = await pageRun(kind, mode, { image: mode === 'asIs' && kind === 'widget' ? image : undefined });
          line.push(`${kind}/${mode} ${r.firstFrameMs.toFixed(0)}`);
          if (MARKS && kind !== 'element') process.stderr.write(`  ${kind}/${mode}: ${timeline(r.marks)}\n`);
          if (i === 0) continue; // run 0 warms up Chromium, LiveKit and the services
          (first[mode][kind] ??= []).push(r.firstFrameMs);
          (afterCreate[mode][kind] ??= []).push(r.afterCreateMs);
          if (r.imageChangeMs !== undefined) imageChanges.widget.push(r.imageChangeMs);
          if (r.threads) (threads[`${kind}/${mode}`] ??= []).push(r.threads);
        }
      }
      // The rtc-node client talks to the as-is proxy.
      if (MODES.includes('asIs')) {
        const b = await nodeRun(base, image);
        await tornDown();
        line.push(`node ${b.firstFrameMs.toFixed(0)}`);
        if (i > 0) {
          nodeFirst.push(b.firstFrameMs);
          imageChanges.node.push(b.imageChangeMs);
        }
      }
      process.stderr.write(`e2e run ${i}${i === 0 ? ' (warm-up)' : ''}: ${line.join(', ')} ms\n`);
    }
    if (PROFILE) await profiled(PAGES, 'normal', profile);
  }
  for (const condition of CONDITIONS.filter((c): c is Exclude<Condition, 'normal'> => c !== 'normal')) {
    const kinds = CONDITION_PAGES[condition];
    const c: ConditionResult = (conditions[condition] = { first: {} });
    if (condition === 'lossy') Object.assign(c, { settle: {}, freezes: {}, chain: {}, link: lossy!.measured });
    for (let i = 0; i <= RUNS; i++) {
      const line: string[] = [];
      for (const kind of shuffled(kinds)) {
        const r =
          condition === 'firefox'
            ? { ...(await firefoxRun(kind, 'warm')), settleMs: 0, freezes: undefined, resources: [] }
            : await pageRun(kind, 'warm', {
                condition,
                // The React page is here for its settle time only: what a React app's bytes cost on this link.
                freezeSeconds: condition === 'lossy' && kind !== 'bareReact' ? FREEZE_SECONDS : undefined,
              });
        line.push(
          `${kind} ${r.firstFrameMs.toFixed(0)}${condition === 'lossy' ? ` (settle ${r.settleMs.toFixed(0)}, freezes ${r.freezes?.freezes ?? '?'})` : ''}`,
        );
        if (i === 0) continue;
        (c.first[kind] ??= []).push(r.firstFrameMs);
        if (condition !== 'lossy') continue;
        (c.settle![kind] ??= []).push(r.settleMs);
        if (r.freezes) (c.freezes![kind] ??= []).push(r.freezes);
        c.chain![kind] = r.resources;
      }
      process.stderr.write(`e2e ${condition} run ${i}${i === 0 ? ' (warm-up)' : ''}: ${line.join(', ')} ms\n`);
    }
    if (PROFILE && condition === 'cpu4') await profiled(kinds, condition, (c.profile = {}));
  }
  if (MEMORY_MINUTES > 0) {
    memory = {};
    for (const kind of pagesFor(['widget', 'bare']))
      memory[kind] = (await pageRun(kind, 'warm', { memoryMinutes: MEMORY_MINUTES })).memory!;
  }
  console.log(
    JSON.stringify({
      first,
      afterCreate,
      imageChange: imageChanges,
      node: nodeFirst,
      profile,
      threads: threadMedians(threads),
      conditions,
      ...(memory ? { memory } : {}),
    }),
  );
} finally {
  await browser.close();
  await lossy?.browser.close();
  await firefox?.close();
  await lossy?.link.close();
  await new Promise((r) => server.close(() => r(undefined)));
  server.closeAllConnections?.();
  await rm(outDir, { recursive: true, force: true });
  for (const s of Object.values(services)) await s.close();
  await lk.stop();
}
process.exit(0);

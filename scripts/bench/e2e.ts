// Row 5 of `npm run bench` (run with `npx tsx`, inside the network namespace): click "Start call" → first presented
// video frame (requestVideoFrameCallback) on the real LiveKit path, in one Chromium, for three pages:
//   widget  — <AvatarWidget> in a production Vite build (React app);
//   element — the standalone <liveai-avatar> script (dist/standalone build) on a plain HTML page;
//   bare    — a page that uses only livekit-client: same proxy call, same room, same timer (the fair baseline).
// Each in two service modes, two local services behind two proxies:
//   as-is   — queue 0, the avatar joins while the browser connects (the create call answers at once);
//   warm    — the create call answers only once the avatar is in the room, publishing (`answerWhenActive`).
// Runs alternate (every round runs every page in every mode, pages in a shuffled order, seeded so a re-run repeats
// it); run 0 is a dropped warm-up.
// Also the rtc-node client (e2e-node.ts) as an informative lower bound, and updateImage → image_change_complete.
// Before each run every LiveKit room is empty again (the previous session's avatar has left).
// Flags: --runs N; --modes asIs,warm (default both); --marks (the widget's timeline per run); --profile (main-thread work click → first frame from a
// Chromium trace, per page, warm mode; with LIVEAI_BENCH_JS_PROFILE=1 also the top JavaScript self times);
// --threads (every run traced: each Chromium thread's busy ms from the click to the create answer and from there to
// the first frame, medians per page in `threads`; tracing slows the pages, so the times of such a run are not the bench's); --transport rtc-a / --prefetch (widget page variants); --only widget,bare;
// --cold: also `widgetCold`, the widget on a page that registers both transports (nothing to predict on a first
// visit, so the transport is fetched after the create answer): the before/after of the transport prediction.
// Prints one JSON line: { first: {mode: {page: ms[]}}, afterCreate: {mode: {page: ms[]}} (create answered → first
// frame, the part the page itself decides), imageChange: {widget: ms[], node: ms[]}, node: ms[], profile,
// threads: {"page/mode": {thread: [ms before, ms after the create answer]}} }.
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express from 'express';
import { RoomServiceClient } from 'livekit-server-sdk';
import sharp from 'sharp';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { createEmulator } from '../../src/emulator/index';
import { prng } from '../../src/emulator/media/motion';
import { createAvatarProxy } from '../../src/server/index';
import { nodeRun } from './e2e-node';
import { startThreadTrace, startTrace, stopThreadTrace, stopTrace, type MainThreadWork, type ThreadWork } from './trace';
// @ts-expect-error -- plain ESM script without types
import { installLivekit, LIVEKIT_KEYS, startLivekit } from '../livekit.mjs';
import { CHROMIUM_BASE_ARGS, CHROMIUM_MEDIA_ARGS } from '../chromium.mjs';
import { median } from './stats.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const FORCED = arg('--transport');
const PREFETCH = process.argv.includes('--prefetch');
const MARKS = process.argv.includes('--marks');
const PROFILE = process.argv.includes('--profile');
/** Traced runs per page with --profile (at most --runs). */
const PROFILE_RUNS = 11;
const THREADS = process.argv.includes('--threads');
const RUNS = Number(arg('--runs') || 5);
type PageKind = 'widget' | 'element' | 'bare' | 'widgetCold';
type Mode = 'asIs' | 'warm';
const COLD = process.argv.includes('--cold');
const PAGES = (arg('--only')?.split(',') ?? ['widget', 'element', 'bare', ...(COLD ? ['widgetCold'] : [])]) as PageKind[];
const MODES = (arg('--modes')?.split(',') ?? ['asIs', 'warm']) as Mode[];
const CHROMIUM_ARGS = CHROMIUM_BASE_ARGS;
const MEDIA_ARGS = CHROMIUM_MEDIA_ARGS;

async function face(bg: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="${bg}"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/></svg>`;
  return (await sharp(Buffer.from(svg)).jpeg().toBuffer()).toString('base64');
}

installLivekit({ quiet: true });
const lk = await startLivekit();
const livekit = { url: lk.url, apiKey: LIVEKIT_KEYS.apiKey, apiSecret: LIVEKIT_KEYS.apiSecret };
const rooms = new RoomServiceClient(lk.url.replace(/^ws/, 'http'), livekit.apiKey, livekit.apiSecret);
/**
 * Resolves once no LiveKit room has a participant: the previous run's avatar has unpublished and left (the service
 * closes it after the end call answered). Without this wait the next page would connect while that teardown still
 * runs, and with pages in a fixed rotation each page would always follow the same other page's teardown.
 */
async function roomsEmpty(timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await rooms.listRooms()).some((r) => r.numParticipants > 0)) {
    if (Date.now() > deadline) return void process.stderr.write('e2e: a room still has participants after 15 s; going on\n');
    await new Promise((r) => setTimeout(r, 25));
  }
}
// imageChangeMs 0: the service's simulated generation delay is left out, the rest of the path is real.
const services = {
  asIs: await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit }),
  warm: await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit, answerWhenActive: true }),
};
const PROXY: Record<Mode, string> = { asIs: '/api/avatar', warm: '/api/avatar-warm' };
const app = express();
for (const mode of MODES) {
  const upstream = { baseUrl: services[mode].url, apiKey: 'dev-key-alice' };
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
await build({
  root: ROOT,
  configFile: false,
  plugins: [react()],
  base: '/',
  logLevel: 'error',
  build: {
    outDir: join(outDir, 'app'),
    emptyOutDir: true,
    rollupOptions: { input: [resolve(pages, 'widget.html'), resolve(pages, 'bare.html')] },
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
app.use(express.static(join(outDir, 'app')));
const server = await new Promise<import('node:http').Server>((r) => {
  const s = app.listen(0, '127.0.0.1', () => r(s));
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const URLS: Record<PageKind, string> = {
  widget: '/scripts/bench/pages/widget.html',
  widgetCold: '/scripts/bench/pages/widget.html',
  bare: '/scripts/bench/pages/bare.html',
  element: '/element.html',
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, ...MEDIA_ARGS],
});

type Probe = {
  marks: Record<string, number>;
  startClickedAt: number | null;
  firstFrameAt: number | null;
  /** When the create call answered (probe.js), performance.now() ms. */
  createAnsweredAt: number | null;
  events: Array<{ at: number; event: { type: string } }>;
  errors: string[];
  session: { updateImage(i: { base64: string }): Promise<void>; end(): Promise<unknown> } | null;
  end?: () => Promise<unknown>;
};

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

/** One page run: load, click Start, wait for the first frame; the ms between them (and the profile / image change). */
async function pageRun(kind: PageKind, mode: Mode, opts: { image?: string; profile?: boolean }) {
  const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
  await context.grantPermissions(['camera', 'microphone']);
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`[${kind}/${mode}] page error: ${e.message}\n`));
  page.on('response', (r) => r.status() >= 400 && process.stderr.write(`[${kind}/${mode}] ${r.status()} ${r.url()}\n`));
  try {
    const query = new URLSearchParams({
      proxy: PROXY[mode],
      ...(kind === 'widget' && FORCED ? { transport: FORCED } : {}),
      ...(kind === 'widget' && PREFETCH ? { prefetch: '1' } : {}),
      ...(MARKS ? { marks: '1' } : {}),
      ...(kind === 'widgetCold' ? { cold: '1' } : {}),
    });
    await page.goto(`${base}${URLS[kind]}?${query}`);
    const start = page.getByRole('button', { name: /Start call/ });
    await start.waitFor({ timeout: 20_000 });
    // Every page is clicked once it has settled (no request for 500 ms), as a person clicks seconds after the page
    // showed: the bare page has its livekit-client by then, ours whatever it prefetched when Start came into view.
    await page.waitForLoadState('networkidle');
    if (kind === 'widget' && PREFETCH)
      await page.waitForFunction(() => (window as unknown as { __bench: { prefetched: boolean } }).__bench.prefetched, null, {
        timeout: 60_000,
      });
    const cdp = opts.profile ? await startTrace(page) : undefined;
    // Chromium runs one trace at a time: the --profile runs keep theirs.
    const threadCdp = THREADS && !cdp ? await startThreadTrace(page) : undefined;
    await start.click({ timeout: 60_000 });
    await page
      .waitForFunction(() => (window as unknown as { __bench: Probe }).__bench.firstFrameAt !== null, null, { timeout: 60_000 })
      .catch(async (e: Error) => {
        const errors = await page.evaluate(() => (window as unknown as { __bench: Probe }).__bench.errors.join('; '));
        throw new Error(`${kind}/${mode}: no first frame (${e.message}); page errors: ${errors}`);
      });
    const profile: MainThreadWork | undefined = cdp ? await stopTrace(cdp) : undefined;
    const threads: ThreadWork | undefined = threadCdp ? await stopThreadTrace(threadCdp) : undefined;
    const imageChangeMs = opts.image ? await imageChange(page, opts.image) : undefined;
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
    return { firstFrameMs, afterCreateMs, imageChangeMs, marks, profile, threads };
  } finally {
    await context.close();
    await roomsEmpty();
  }
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
try {
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
      await roomsEmpty();
      line.push(`node ${b.firstFrameMs.toFixed(0)}`);
      if (i > 0) {
        nodeFirst.push(b.firstFrameMs);
        imageChanges.node.push(b.imageChangeMs);
      }
    }
    process.stderr.write(`e2e run ${i}${i === 0 ? ' (warm-up)' : ''}: ${line.join(', ')} ms\n`);
  }
  // Traced runs are separate (tracing slows the page down): warm mode, alternating, every page. Eleven of them: with
  // five, one page's median moved by ±40 ms between bench runs.
  for (let i = 0; PROFILE && i < Math.min(RUNS, PROFILE_RUNS); i++) {
    for (const kind of PAGES.map((_, k) => PAGES[(k + i) % PAGES.length]!)) {
      const r = await pageRun(kind, 'warm', { profile: true });
      (profile[kind] ??= []).push(r.profile!);
      process.stderr.write(
        `e2e profile ${i} ${kind}: busy ${r.profile!.busyMs.toFixed(0)} ms of ${r.profile!.windowMs.toFixed(0)} ms (compile+eval ${r.profile!.compileEvalMs.toFixed(0)}, other script ${r.profile!.scriptMs.toFixed(0)}, style+layout ${r.profile!.styleLayoutMs.toFixed(0)})\n`,
      );
    }
  }
  console.log(JSON.stringify({ first, afterCreate, imageChange: imageChanges, node: nodeFirst, profile, threads: threadMedians(threads) }));
} finally {
  await browser.close();
  await new Promise((r) => server.close(() => r(undefined)));
  server.closeAllConnections?.();
  await rm(outDir, { recursive: true, force: true });
  for (const s of Object.values(services)) await s.close();
  await lk.stop();
}
process.exit(0);

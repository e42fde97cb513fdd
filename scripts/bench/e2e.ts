// Row 5 of `npm run bench` (run with `npx tsx`, inside the network namespace): the real LiveKit path with queue
// time 0. Starts LiveKit, the local service (media on), the proxy and a Vite dev server with the widget page, then
// per run opens a fresh Chromium page, clicks "Start call" and measures click → first decoded frame and
// updateImage() → image_change_complete (ms). Baseline, same run: a bare Node client (rtc-node) doing the same through
// the proxy: POST /rooms → join → first decoded frame, and POST control update-image → image_change_complete.
// `--dev`: the page from the Vite dev server instead of a production build; `--marks`: print each run's timeline;
// `--transport rtc-a`: the widget is given options.transport; `--prefetch`: the page prefetches the rtc-a chunk on load.
// Prints one JSON line: { runs: [{ firstFrameMs, imageChangeMs }], baseline: [{ firstFrameMs, imageChangeMs }] }.
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import express from 'express';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { Room, RoomEvent, TrackKind, VideoStream, type RemoteTrack } from '@livekit/rtc-node';
import { build, createServer as createViteServer } from 'vite';
import react from '@vitejs/plugin-react';
import { createEmulator } from '../../src/emulator/index';
import { createAvatarProxy } from '../../src/server/index';
// @ts-expect-error -- plain ESM script without types
import { installLivekit, LIVEKIT_KEYS, startLivekit } from '../livekit.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
/** `--transport rtc-a`: the widget gets `options.transport` (so it knows its transport before the create call answers). */
const FORCED = process.argv.includes('--transport') ? process.argv[process.argv.indexOf('--transport') + 1] : undefined;
/** `--prefetch`: the page prefetches the rtc-a chunk when it loads (before the click). */
const PREFETCH = process.argv.includes('--prefetch');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5);
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required',
  '--allow-loopback-in-peer-connection', '--disable-features=WebRtcHideLocalIpsWithMdns'];

async function face(bg: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560"><rect width="368" height="560" fill="${bg}"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/></svg>`;
  return (await sharp(Buffer.from(svg)).jpeg().toBuffer()).toString('base64');
}

/** The baseline: no browser, no React — the proxy's REST routes and an rtc-node subscriber. */
async function nodeRun(base: string, image: string): Promise<{ firstFrameMs: number; imageChangeMs: number; marks: Record<string, number> }> {
  const t0 = performance.now();
  const marks: Record<string, number> = {};
  const mark = (name: string) => void (marks[name] ??= Math.round(performance.now() - t0));
  const res = await fetch(`${base}/api/avatar/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'agent-demo' }) });
  const s = (await res.json()) as { session_id: string; client_token: string; room_url: string; token: string };
  if (res.status !== 201) throw new Error(`POST /rooms: ${res.status}`);
  mark('POST /api/avatar/rooms answered');
  const room = new Room();
  const events: Array<{ at: number; type: string }> = [];
  let firstFrameAt = 0;
  const gotFrame = new Promise<void>((ok) =>
    room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      if (track.kind !== TrackKind.KIND_VIDEO) return;
      mark('video track');
      void (async () => {
        const reader = new VideoStream(track).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          if (!firstFrameAt) {
            firstFrameAt = performance.now();
            ok();
          }
        }
      })();
    }),
  );
  room.on(RoomEvent.DataReceived, (payload: Uint8Array) => {
    try {
      const type = (JSON.parse(new TextDecoder().decode(payload)) as { type: string }).type;
      events.push({ at: performance.now(), type });
      mark(`event ${type}`);
    } catch {
      /* not an event */
    }
  });
  try {
    await room.connect(s.room_url, s.token, { autoSubscribe: true, dynacast: false });
    mark('room connected');
    await Promise.race([gotFrame, new Promise((_, no) => setTimeout(() => no(new Error('no frame within 60 s')), 60_000))]);
    const firstFrameMs = firstFrameAt - t0;
    const t1 = performance.now();
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${s.client_token}` };
    const c = await fetch(`${base}/api/avatar/sessions/${s.session_id}/control`, { method: 'POST', headers: auth, body: JSON.stringify({ event: 'update-image', image_base64: image }) });
    if (c.status !== 200) throw new Error(`update-image: ${c.status}`);
    const deadline = Date.now() + 30_000;
    let done: { at: number } | undefined;
    while (!(done = events.find((e) => e.at >= t1 && e.type === 'image_change_complete'))) {
      if (Date.now() > deadline) throw new Error('no image_change_complete');
      await new Promise((r) => setTimeout(r, 5));
    }
    await fetch(`${base}/api/avatar/sessions/${s.session_id}/end`, { method: 'POST', headers: auth }).catch(() => {});
    marks['first frame'] = Math.round(firstFrameMs);
    return { firstFrameMs, imageChangeMs: done.at - t1, marks };
  } finally {
    await room.disconnect().catch(() => {});
  }
}

installLivekit({ quiet: true });
const lk = await startLivekit();
const livekit = { url: lk.url, apiKey: LIVEKIT_KEYS.apiKey, apiSecret: LIVEKIT_KEYS.apiSecret };
// imageChangeMs 0: the service's simulated generation delay is left out, the rest of the path is real.
const emulator = await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit });
const app = express();
app.use('/api/avatar', createAvatarProxy({ upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice' }, sessionSecret: 'bench-e2e-session-secret-0123456789abcdef', livekit, rateLimit: false }));
// The page as users ship it: a production Vite build (minified chunks, the rtc-a chunk loaded with one request),
// served statically. `--dev` serves it from the Vite dev server instead (one request per module: slower).
const DEV = process.argv.includes('--dev');
const vite = DEV ? await createViteServer({ root: ROOT, configFile: false, plugins: [react()], server: { middlewareMode: true, hmr: false }, appType: 'mpa', logLevel: 'error' }) : undefined;
const outDir = DEV ? undefined : await mkdtemp(join(tmpdir(), 'liveai-bench-widget-'));
if (vite) app.use(vite.middlewares);
else {
  await build({ root: ROOT, configFile: false, plugins: [react()], base: '/', logLevel: 'error', build: { outDir, emptyOutDir: true, rollupOptions: { input: resolve(ROOT, 'scripts/bench/widget.html') } } });
  app.use(express.static(outDir!));
}
const server = await new Promise<import('node:http').Server>((r) => {
  const s = app.listen(0, '127.0.0.1', () => r(s));
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...MEDIA_ARGS] });
const runs: Array<{ firstFrameMs: number; imageChangeMs: number; marks?: Record<string, number> }> = [];
const baseline: typeof runs = [];
/** Marks as "name +ms" after the click (or t0), in time order. */
const timeline = (marks: Record<string, number>) => Object.entries(marks).sort((a, b) => a[1] - b[1]).map(([k, v]) => `${k} +${v}`).join(', ');
type Probe = { marks: Record<string, number>; startClickedAt: number | null; firstFrameAt: number | null; events: Array<{ at: number; event: { type: string } }>; errors: string[]; session: { updateImage(i: { base64: string }): Promise<void>; end(): Promise<unknown> } | null };
try {
  for (let i = 0; i <= RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
    await context.grantPermissions(['camera', 'microphone']);
    const page = await context.newPage();
    const query = new URLSearchParams({ ...(FORCED ? { transport: FORCED } : {}), ...(PREFETCH ? { prefetch: '1' } : {}) });
    await page.goto(`${base}/scripts/bench/widget.html${query.size ? `?${query}` : ''}`);
    // With --prefetch the user clicks once the chunk is in (a user reads the page for longer than that).
    if (PREFETCH) await page.waitForFunction(() => (window as unknown as { __bench: { prefetched: boolean } }).__bench.prefetched, null, { timeout: 60_000 });
    await page.getByRole('button', { name: /Start call/ }).click({ timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { __bench: Probe }).__bench.firstFrameAt !== null, null, { timeout: 60_000 });
    const image = await face(`hsl(${(i * 67) % 360},50%,70%)`);
    const imageChangeMs = await page.evaluate(async (base64) => {
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
    const { firstFrameMs, marks } = await page.evaluate(() => {
      const p = (window as unknown as { __bench: Probe }).__bench;
      const t0 = p.startClickedAt!;
      const rel = Object.fromEntries(Object.entries(p.marks).filter(([, at]) => at >= t0 - 1).map(([k, at]) => [k, Math.round(at - t0)]));
      return { firstFrameMs: p.firstFrameAt! - t0, marks: { ...rel, 'first frame': Math.round(p.firstFrameAt! - t0) } };
    });
    await page.evaluate(() => (window as unknown as { __bench: Probe }).__bench.session?.end()).catch(() => {});
    await context.close();
    const b = await nodeRun(base, image);
    if (i > 0) { // run 0 warms up Vite, Chromium and LiveKit
      runs.push({ firstFrameMs, imageChangeMs, marks });
      baseline.push(b);
    }
    process.stderr.write(`e2e run ${i}: widget ${firstFrameMs.toFixed(0)} / ${imageChangeMs.toFixed(0)} ms; node ${b.firstFrameMs.toFixed(0)} / ${b.imageChangeMs.toFixed(0)} ms\n`);
    if (process.argv.includes('--marks')) process.stderr.write(`  widget: ${timeline(marks)}\n  node:   ${timeline(b.marks)}\n`);
  }
  console.log(JSON.stringify({ runs, baseline }));
} finally {
  await browser.close();
  await new Promise((r) => server.close(() => r(undefined)));
  server.closeAllConnections?.();
  await vite?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
  await emulator.close();
  await lk.stop();
}
process.exit(0);

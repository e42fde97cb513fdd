// Which browser-side source files one call passes through: Start → first frame → end, measured, not read off the code.
// The widget bench page (scripts/bench/pages/widget-page.tsx) is built with Vite (production mode, not minified, with
// source maps) and run in Chromium against the real proxy, the local avatar service and a LiveKit server. V8's precise
// coverage (Chrome DevTools Protocol, callCount) is reset just before the click on "Start call" and taken once the
// session has ended (End clicked, the session's phase `ended`); every function that ran in that window is mapped back
// through the source map to its source file, and the files under src/core, src/react and src/components are printed,
// with the functions that ran in each and a count per folder. Module bodies that ran when the page loaded are not in
// the window; the transport chunk, loaded on the click, is.
// Run inside the network namespace, like the bench:
//   scripts/netns-run.sh npx tsx scripts/path-files.ts [--json] [--mode asIs|warm] [--runs N]
// --runs (3): calls measured; the list is their union, and a file that ran in only some of them says in how many
// (what runs can depend on timing: an agent-state event, a poll that came before the first frame).
// --mode: warm (default) makes the create call answer once the avatar publishes (the bench's fair mode); asIs answers
// at once and the page waits in the room for the avatar.
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { createEmulator } from '../src/emulator/index';
import { createAvatarProxy } from '../src/server/index';
// @ts-expect-error -- plain ESM script without types
import { installLivekit, LIVEKIT_KEYS, startLivekit } from './livekit.mjs';
import { CHROMIUM_BASE_ARGS, CHROMIUM_MEDIA_ARGS } from './chromium.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const JSON_OUT = process.argv.includes('--json');
const WARM = (arg('--mode') ?? 'warm') === 'warm';
/** Calls measured, one fresh browser context each; a file is listed when a function of it ran in any of them. */
const RUNS = Number(arg('--runs') ?? 3);
const FOLDERS = ['src/core', 'src/react', 'src/components'] as const;
const API_KEY = 'dev-key-alice';

installLivekit({ quiet: true });
const lk = (await startLivekit({ bind: ['127.0.0.1'] })) as { url: string; stop?: () => Promise<void>; close?: () => Promise<void> };
const livekit = { url: lk.url, apiKey: LIVEKIT_KEYS.apiKey as string, apiSecret: LIVEKIT_KEYS.apiSecret as string };
const service = await createEmulator({ port: 0, media: true, queueMs: 0, imageChangeMs: 0, livekit, answerWhenActive: WARM });
const app = express();
app.use(
  '/api/avatar',
  createAvatarProxy({
    upstream: { baseUrl: service.url, apiKey: API_KEY },
    sessionSecret: 'path-files-session-secret-0123456789abcdef',
    livekit,
    rateLimit: false,
    sessionLimits: false,
    ownerLimits: false,
  }),
);
const outDir = await mkdtemp(join(tmpdir(), 'liveai-path-files-'));
await build({
  root: ROOT,
  configFile: false,
  plugins: [react()],
  base: '/',
  logLevel: 'error',
  build: {
    outDir,
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    rollupOptions: { input: [resolve(ROOT, 'scripts/bench/pages/widget.html')] },
  },
});
app.use(express.static(outDir));
const server = await new Promise<import('node:http').Server>((r) => {
  const s = app.listen(0, '127.0.0.1', () => r(s));
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_BASE_ARGS, ...CHROMIUM_MEDIA_ARGS],
});

interface FunctionCoverage {
  functionName: string;
  ranges: Array<{ startOffset: number; endOffset: number; count: number }>;
}
interface ScriptCoverage {
  scriptId: string;
  url: string;
  functions: FunctionCoverage[];
}

/** Source file (repository-relative) → names of the functions of it that ran ("(anonymous)" for those without). */
const ran = new Map<string, Set<string>>();
/** Source file → in how many of the runs a function of it ran. */
const seen = new Map<string, number>();
try {
  for (let run = 0; run < RUNS; run++) for (const f of await measure()) seen.set(f, (seen.get(f) ?? 0) + 1);
} finally {
  await browser.close();
  server.close();
  await service.close();
  await (lk.stop ?? lk.close)?.call(lk);
  await rm(outDir, { recursive: true, force: true });
}

/** One call, Start → first frame → ended, in a fresh browser context; the source files whose functions ran in it. */
async function measure(): Promise<Set<string>> {
  const files = new Set<string>();
  const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
  await context.grantPermissions(['camera', 'microphone']);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await page.goto(`${base}/scripts/bench/pages/widget.html?proxy=/api/avatar`);
  const start = page.getByRole('button', { name: /Start call/ });
  await start.waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  // Taking the coverage resets its counters: what the next take reports ran after this point.
  await cdp.send('Profiler.takePreciseCoverage');
  await start.click();
  await page.waitForFunction(
    () => (window as unknown as { __bench: { firstFrameAt: number | null } }).__bench.firstFrameAt !== null,
    null,
    {
      timeout: 60_000,
    },
  );
  await page.getByRole('button', { name: 'End', exact: true }).click();
  await page.waitForFunction(
    () =>
      (window as unknown as { __bench: { session: { store: { getState(): { phase: string } } } | null } }).__bench.session?.store.getState()
        .phase === 'ended',
    null,
    { timeout: 30_000 },
  );
  const { result } = (await cdp.send('Profiler.takePreciseCoverage')) as { result: ScriptCoverage[] };
  await cdp.send('Profiler.stopPreciseCoverage');
  if (errors.length) process.stderr.write(`path-files: page errors: ${errors.join('; ')}\n`);

  for (const script of result) {
    if (!script.url.startsWith(base) || !script.url.endsWith('.js')) continue;
    const file = join(outDir, new URL(script.url).pathname);
    // The bundler's own runtime chunk has no source map and no source of ours.
    const mapText = await readFile(`${file}.map`, 'utf8').catch(() => null);
    if (mapText === null) continue;
    const code = await readFile(file, 'utf8');
    const map = new SourceMap(JSON.parse(mapText) as SourceMapPayload);
    const lineStarts = [0];
    for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    const position = (offset: number) => {
      let lo = 0;
      let hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo, column: offset - lineStarts[lo]! };
    };
    for (const fn of script.functions) {
      const [own] = fn.ranges;
      // The script's own top-level range (the module body) ran at load; only functions called in the window count.
      if (!own || own.count === 0 || (own.startOffset === 0 && fn.functionName === '')) continue;
      const at = position(own.startOffset);
      // The function's first mapped token: its name or the first token of its parameters.
      const entry = map.findEntry(at.line, at.column) as { originalSource?: string };
      if (!entry.originalSource) continue;
      const source = relative(ROOT, fileURLToPath(new URL(entry.originalSource, `file://${file}`)));
      if (!FOLDERS.some((f) => source.startsWith(`${f}/`))) continue;
      if (!ran.has(source)) ran.set(source, new Set());
      ran.get(source)!.add(fn.functionName || '(anonymous)');
      files.add(source);
    }
  }
  await context.close();
  return files;
}

const files = [...ran.keys()].sort();
const perFolder = Object.fromEntries(FOLDERS.map((f) => [f, files.filter((s) => s.startsWith(`${f}/`)).length]));
if (JSON_OUT) {
  const entries = files.map((f) => [f, { runs: seen.get(f), functions: [...ran.get(f)!].sort() }]);
  console.log(
    JSON.stringify({ mode: WARM ? 'warm' : 'asIs', runs: RUNS, total: files.length, perFolder, files: Object.fromEntries(entries) }),
  );
} else {
  console.log(`Start → first frame → end (${WARM ? 'warm' : 'as-is'} service, ${RUNS} calls): ${files.length} browser-side files`);
  for (const f of FOLDERS) console.log(`  ${f}: ${perFolder[f]}`);
  console.log('');
  for (const f of files) {
    const names = [...ran.get(f)!].sort();
    const some = seen.get(f)! < RUNS ? ` [in ${seen.get(f)} of ${RUNS} calls]` : '';
    console.log(`${f}${some}  (${names.length} functions: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`);
  }
}
process.exit(0);

#!/usr/bin/env node
// The standalone <liveai-avatar>'s first load: a plain HTML page with its one script tag, in Chromium, until the
// element shows its Start button. Counts the script requests and their bytes (gzip level 9, as the size rows), and
// the critical chain: the longest run of requests each of which could start only once the one before it had
// arrived. A module is requested once the first module importing it statically has arrived, or, for import(), once
// the importing module and everything it imports statically have arrived (it runs only then). Loopback only: a
// static server on 127.0.0.1.
//   node scripts/bench/element-chain.mjs [dist/standalone]   → one JSON line
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_BASE_ARGS, CHROMIUM_PATH } from '../chromium.mjs';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>element</title>
<script type="module" src="/liveai-avatar.js"></script></head>
<body><liveai-avatar agent-id="agent-demo" proxy-url="/api/avatar" inline></liveai-avatar></body></html>`;

/** Relative imports of a built module: static (`from"./x.js"`, `import"./x.js"`) and dynamic (`import("./x.js")`). */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const at = (m) => resolve(dirname(file), m[1]);
  return {
    static: new Set([...text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)].map(at)),
    dynamic: new Set([...text.matchAll(/\bimport\s*\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map(at)),
  };
}

/** The request wave of each loaded module (the entry: 1), per the rules above; the longest is the critical chain. */
function waves(entry, loaded) {
  const imports = new Map([...loaded].map((f) => [f, importsOf(f)]));
  const wave = new Map([[entry, 1]]);
  const ready = (f, seen = new Set()) => {
    if (seen.has(f)) return 0;
    seen.add(f);
    let w = wave.get(f) ?? Infinity;
    for (const g of imports.get(f).static) if (loaded.has(g)) w = Math.max(w, ready(g, seen));
    return w;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const [f, w] of [...wave]) {
      const next = [...[...imports.get(f).static].map((g) => [g, w + 1]), ...[...imports.get(f).dynamic].map((g) => [g, ready(f) + 1])];
      for (const [g, v] of next) {
        if (loaded.has(g) && v < (wave.get(g) ?? Infinity)) {
          wave.set(g, v);
          changed = true;
        }
      }
    }
  }
  return wave;
}

export async function measureElementChain(dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/standalone')) {
  if (!existsSync(join(dir, 'liveai-avatar.js'))) throw new Error(`${dir}/liveai-avatar.js is missing: npm run build`);
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path.startsWith('/api/')) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not here"}');
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_BASE_ARGS });
  try {
    const page = await browser.newPage();
    const scripts = [];
    page.on('request', (r) => r.url().endsWith('.js') && scripts.push(r.url()));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /start/i }).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const files = [...new Set(scripts)].map((u) => join(dir, new URL(u).pathname));
    const wave = waves(join(dir, 'liveai-avatar.js'), new Set(files));
    const gzipBytes = files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0);
    return {
      requests: files.length,
      criticalChain: Math.max(...wave.values()),
      gzipBytes,
      files: files.map((f) => f.slice(dir.length + 1)),
    };
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await measureElementChain(process.argv[2] ? resolve(process.argv[2]) : undefined)));
}

#!/usr/bin/env node
// A contact sheet of every state of the drop-in widget, to look at the design as a whole.
//
// Renders the "Widget/States" stories (stories/widget/WidgetStates.stories.tsx) from a static Storybook build in
// headless Debian Chromium (playwright-core, no browser download) at 360 and 1280 px, light and dark, English and
// Arabic; crops each to the widget; and lays them out, labelled, as one PNG per width:
//   test-results/contact-sheet/sheet-360.png, sheet-1280.png   (plus every single shot beside them)
// With --docs it also writes the small pictures docs/components.md and the README show (docs/images/*.jpg, JPEG so
// they stay small in the repository).
//
// Usage: node scripts/contact-sheet.mjs [--prebuilt] [--docs] [--only <story-id part>] [--reuse]
//   --prebuilt  use storybook-static/ as it is (else it is built first: `storybook build`, about a minute)
//   --reuse     lay out the shots already in test-results/contact-sheet/ instead of taking them again
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_BASE_ARGS, CHROMIUM_PATH } from './chromium.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const STATIC = join(ROOT, 'storybook-static');
const OUT = join(ROOT, 'test-results/contact-sheet');
const DOCS = join(ROOT, 'docs/images');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : '';

/** The states, in the order a visitor meets them. */
const STATES = [
  'launcher',
  'idle',
  'idle-inline',
  'pre-join',
  'waiting',
  'waiting-long',
  'listening',
  'thinking',
  'speaking',
  'speaking-stop',
  'speaking-keyed',
  'chat-open',
  'mic-blocked',
  'more-options',
  'change-look',
  'sound-blocked',
  'minimized-in-call',
  'ended',
  'error-retry',
  'error-dead-end',
].filter((s) => s.includes(only));
const LOOKS = [
  { theme: 'light', lang: 'en' },
  { theme: 'dark', lang: 'en' },
  { theme: 'light', lang: 'ar' },
  { theme: 'dark', lang: 'ar' },
];
const WIDTHS = [360, 1280];
const HEIGHT = { 360: 740, 1280: 860 };
/** The pictures of the docs: [state, width, theme, lang, file]. */
const DOC_SHOTS = [
  ['idle', 360, 'light', 'en', 'widget-idle.jpg'],
  ['pre-join', 360, 'light', 'en', 'widget-pre-join.jpg'],
  ['waiting', 360, 'light', 'en', 'widget-waiting.jpg'],
  ['speaking', 360, 'light', 'en', 'widget-speaking.jpg'],
  ['listening', 360, 'dark', 'en', 'widget-listening-dark.jpg'],
  ['mic-blocked', 360, 'light', 'en', 'widget-mic-blocked.jpg'],
  ['more-options', 360, 'dark', 'en', 'widget-more-options.jpg'],
  ['ended', 360, 'light', 'en', 'widget-ended.jpg'],
  ['error-dead-end', 360, 'dark', 'en', 'widget-error.jpg'],
  ['launcher', 360, 'light', 'en', 'widget-launcher.jpg'],
  ['speaking', 360, 'dark', 'ar', 'widget-speaking-ar.jpg'],
];

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

const reuse = args.includes('--reuse');
if (!reuse && (!args.includes('--prebuilt') || !existsSync(join(STATIC, 'index.json')))) {
  console.log('building storybook-static/ …');
  execFileSync('npx', ['storybook', 'build', '-o', STATIC, '--quiet'], { cwd: ROOT, stdio: 'ignore' });
}
mkdirSync(OUT, { recursive: true });

const server = createServer((req, res) => {
  const path = join(STATIC, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
  if (!path.startsWith(STATIC) || !existsSync(path)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

// The play functions' outcome, seen through the preview's channel (as test/browser/stories.test.ts does).
const HOOK = `(() => {
  let ch; window.__lai = { finished: null, errors: [] };
  Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', { configurable: true, get: () => ch, set: (v) => {
    ch = v;
    v.on('storyFinished', (e) => (window.__lai.finished = e));
    v.on('playFunctionThrewException', (e) => window.__lai.errors.push(JSON.stringify(e).slice(0, 500)));
  } });
})();`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_BASE_ARGS });
/** One shot: the widget (launcher or panel) cropped with a margin, as a PNG buffer. */
async function shoot(page, state, width, theme, lang) {
  const id = `widget-states--${state}`;
  await page.goto(`${base}/iframe.html?id=${id}&viewMode=story&globals=theme:${theme};lang:${lang}`);
  await page.waitForFunction(() => window.__lai?.finished, null, { timeout: 30_000 });
  const errors = await page.evaluate(() => window.__lai.errors);
  if (errors.length) console.warn(`  ${id} ${theme} ${lang}: ${errors.join(' ')}`);
  // Let the last frame, fonts and transitions settle (this is a picture for people, not a test).
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  const box = await page.locator('.liveai-widget').first().boundingBox();
  const m = 16;
  const clip = box
    ? {
        x: Math.max(0, box.x - m),
        y: Math.max(0, box.y - m),
        width: Math.min(width, box.width + 2 * m),
        height: Math.min(HEIGHT[width], box.height + 2 * m),
      }
    : undefined;
  return page.screenshot({ clip });
}

const shots = new Map();
for (const width of WIDTHS) {
  for (const look of LOOKS) {
    if (reuse) {
      for (const state of STATES) {
        const name = `${state}.${width}.${look.theme}.${look.lang}.png`;
        shots.set(name, readFileSync(join(OUT, name)));
      }
      continue;
    }
    const ctx = await browser.newContext({ viewport: { width, height: HEIGHT[width] }, reducedMotion: 'reduce' });
    await ctx.addInitScript(HOOK);
    const page = await ctx.newPage();
    for (const state of STATES) {
      const png = await shoot(page, state, width, look.theme, look.lang);
      const name = `${state}.${width}.${look.theme}.${look.lang}.png`;
      writeFileSync(join(OUT, name), png);
      shots.set(name, png);
    }
    await ctx.close();
    console.log(`${width} px ${look.theme} ${look.lang}: ${STATES.length} states`);
  }
}

/** One sheet per width: a row per state, a column per look, each shot scaled to fit its cell, labelled. */
async function sheet(width) {
  const cellW = width === 360 ? 300 : 420;
  const cells = STATES.map(
    (state) =>
      `<tr><th>${state}</th>${LOOKS.map((l) => {
        const png = shots.get(`${state}.${width}.${l.theme}.${l.lang}.png`);
        return `<td><img src="data:image/png;base64,${png.toString('base64')}"></td>`;
      }).join('')}</tr>`,
  );
  const html = `<!doctype html><style>
    body{margin:0;font:14px system-ui;background:#777}
    table{border-collapse:collapse} th{padding:6px;color:#fff;text-align:start;vertical-align:top}
    td{padding:6px;vertical-align:top} img{display:block;max-width:${cellW}px;max-height:${Math.round(cellW * 1.9)}px}
    thead th{position:sticky;top:0}
  </style><table><thead><tr><th>${width} px</th>${LOOKS.map((l) => `<th>${l.theme} · ${l.lang}</th>`).join('')}</tr></thead>
  <tbody>${cells.join('')}</tbody></table>`;
  const ctx = await browser.newContext({ viewport: { width: 120 + 4 * (cellW + 12), height: 800 } });
  const page = await ctx.newPage();
  await page.setContent(html);
  const path = join(OUT, `sheet-${width}.png`);
  await page.screenshot({ path, fullPage: true });
  await ctx.close();
  console.log(path);
}
for (const width of WIDTHS) await sheet(width);

if (args.includes('--docs')) {
  mkdirSync(DOCS, { recursive: true });
  const ctx = await browser.newContext({ viewport: { width: 1600, height: 800 } });
  const page = await ctx.newPage();
  /** Lays PNG shots side by side on white and saves them as one JPEG (small for the repository), `width` px each. */
  const jpeg = async (pngs, file, width) => {
    await page.setContent(
      `<body style="margin:0;display:inline-flex;gap:4px;background:#fff">${pngs
        .map((p) => `<img style="width:${width}px" src="data:image/png;base64,${p.toString('base64')}">`)
        .join('')}</body>`,
    );
    await page.evaluate(() => Promise.all([...document.images].map((i) => i.decode())));
    await page.locator('body').screenshot({ path: join(DOCS, file), type: 'jpeg', quality: 82 });
  };
  for (const [state, width, theme, lang, file] of DOC_SHOTS) {
    const png = shots.get(`${state}.${width}.${theme}.${lang}.png`);
    if (png) await jpeg([png], file, png.readUInt32BE(16));
  }
  // The README's picture: four moments side by side.
  const row = ['idle', 'waiting', 'speaking', 'ended'].map((s) => shots.get(`${s}.360.light.en.png`)).filter(Boolean);
  if (row.length) await jpeg(row, 'widget-hero.jpg', 300);
  await ctx.close();
  console.log(`docs pictures in ${DOCS}`);
}
await browser.close();
server.close();

// Row 3 of `npm run bench`: a 12 MP JPEG (4000×3000 noisy gradient, made with sharp) turned into a 368×560 JPEG
// under 921600 bytes in Debian Chromium, by our prepareImage vs browser-image-compression, served by a Vite dev
// server on 127.0.0.1. Alternates the two per run; resolves { ours: Result[], bic: Result[], sourceBytes }.
import { createServer as createHttpServer } from 'node:http';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { createServer as createViteServer } from 'vite';
import { CHROMIUM_BASE_ARGS } from '../chromium.mjs';

export const CHROMIUM_ARGS = CHROMIUM_BASE_ARGS;

/** A 4000×3000 JPEG: a colour gradient with per-pixel noise (hard to compress, like a photo). */
export async function makeSourceJpeg(width = 4000, height = 3000) {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = (seed >> 16) % 48;
      const i = (y * width + x) * 3;
      raw[i] = Math.min(255, ((x / width) * 200) | 0) + (n >> 1);
      raw[i + 1] = Math.min(255, ((y / height) * 200) | 0) + (n >> 1);
      raw[i + 2] = 120 + n;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function measureImagePrep(root, { runs = 5 } = {}) {
  const jpeg = await makeSourceJpeg();
  const vite = await createViteServer({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'mpa',
    server: { middlewareMode: true, hmr: false },
  });
  const server = createHttpServer((req, res) => {
    if (req.url?.startsWith('/bench/source.jpg')) {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
      return void res.end(jpeg);
    }
    vite.middlewares(req, res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/scripts/bench/image.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 60_000 });
    const out = { ours: [], bic: [], sourceBytes: jpeg.length };
    await page.evaluate(() => window.__bench.ours()); // warm-up (module and decoder caches)
    await page.evaluate(() => window.__bench.bic());
    for (let i = 0; i < runs; i++) {
      out.ours.push(await page.evaluate(() => window.__bench.ours()));
      out.bic.push(await page.evaluate(() => window.__bench.bic()));
    }
    return out;
  } finally {
    await browser.close();
    await new Promise((r) => server.close(r));
    await vite.close();
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { createAvatarProxy } from '../../src/server/index';
import { API_KEY, launchBrowser, ROOT, SESSION_SECRET } from './harness';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The transport is warm before the create call answers, on a page with BOTH transports registered (the
 * standalone `<liveai-avatar>` script registers LiveKit and Daily) and no remembered session: hovering
 * "Start call" asks the proxy's `GET /transport` and downloads that transport's chunk before the click, and
 * never the other one. A proxy that does not know its rooms' transport gets nothing downloaded early.
 * Real local service, real LiveKit, real proxies, real Chromium; requests observed as the browser sends them.
 */
let browser: Browser;
let server: Server;
let emulator: Awaited<ReturnType<typeof createEmulator>>;
let base = '';
let outDir = '';

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'liveai-prefetch-'));
  await build({ configFile: join(ROOT, 'vite.element.config.ts'), root: ROOT, logLevel: 'error', build: { outDir, sourcemap: false } });
  const livekit = { url: inject('livekitUrl'), apiKey: inject('livekitApiKey'), apiSecret: inject('livekitApiSecret') };
  emulator = await createEmulator({ port: 0, media: true, queueMs: 300, livekit });
  const proxy = (roomTransport?: 'rtc-a', roomServerUrl?: string) =>
    createAvatarProxy({
      upstream: { baseUrl: emulator.url, apiKey: API_KEY },
      sessionSecret: SESSION_SECRET,
      livekit,
      roomTransport,
      roomServerUrl,
      logger: quietLogger(),
    });
  const app = express();
  app.use('/api/avatar', proxy('rtc-a')); // knows: the local service hosts its rooms on LiveKit
  app.use('/api/unknown', proxy()); // has not been told and has created no room yet
  app.use('/api/server', proxy(undefined, livekit.url)); // told the LiveKit server of its rooms
  app.use('/vendor/liveai', express.static(outDir));
  // The element far below the fold, so only the hover (which scrolls it into view) can trigger the prefetch.
  app.get('/page', (req, res) => {
    res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
      <script type="module" src="/vendor/liveai/liveai-avatar.js"></script></head>
      <body><div style="height:3000px">Read this first</div>
      <liveai-avatar id="a" agent-id="agent-demo" proxy-url="${String(req.query.proxy)}" inline initial-state="active"></liveai-avatar>
      </body></html>`);
  });
  server = await new Promise<Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ browser } = await launchBrowser());
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await emulator?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** A fresh profile (no remembered session) with the element's page open; every request path in order. */
async function open(proxy: string): Promise<{ page: Page; paths: string[] }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const paths: string[] = [];
  page.on('request', (r) => paths.push(`${r.method()} ${new URL(r.url()).pathname}`));
  await page.goto(`${base}/page?proxy=${proxy}`);
  await page.locator('liveai-avatar').getByRole('button', { name: 'Start call' }).waitFor({ state: 'attached' });
  expect(await page.evaluate(() => localStorage.getItem('liveai-kit.transport'))).toBeNull();
  return { page, paths };
}
/**
 * A request of the standalone build's chunk `name` (`livekit-adapter`, `daily-adapter`, `call-path`: the schemas of
 * what a call receives, `validation`: every schema).
 */
const chunk = (name: string) => (p: string) => new RegExp(`^GET /vendor/liveai/chunks/${name}-[\\w-]+\\.js$`).test(p);

describe('prefetch from the proxy’s transport hint (standalone element, both transports registered)', () => {
  it('hovering Start fetches the hint and the LiveKit chunk before the click; the Daily chunk never', async () => {
    const { page, paths } = await open('/api/avatar');
    expect(paths.filter((p) => p.includes('/transport') || chunk('livekit-adapter')(p) || chunk('daily-adapter')(p))).toEqual([]);

    await page.locator('liveai-avatar').getByRole('button', { name: 'Start call' }).hover();
    await expect.poll(() => paths.some(chunk('livekit-adapter')), { timeout: 30_000 }).toBe(true);
    const beforeClick = [...paths];
    expect(beforeClick).toContain('GET /api/avatar/transport');
    expect(beforeClick.indexOf('GET /api/avatar/transport')).toBeLessThan(beforeClick.findIndex(chunk('livekit-adapter')));
    expect(beforeClick.filter((p) => p.startsWith('POST /api/avatar/rooms'))).toEqual([]); // nothing created yet
    expect(beforeClick.filter((p) => p.endsWith('/transport'))).toHaveLength(1);
    expect(beforeClick.some(chunk('call-path'))).toBe(true); // the checks of the create answer and the events are warm too

    await page.locator('liveai-avatar').getByRole('button', { name: 'Start call' }).click();
    await expect
      .poll(() => page.locator('liveai-avatar').evaluate((el) => (el as unknown as { phase: string }).phase), { timeout: 60_000 })
      .toBe('active');
    await expect
      .poll(() => page.locator('liveai-avatar').evaluate((el) => el.shadowRoot?.querySelector('video')?.videoWidth ?? 0), {
        timeout: 30_000,
      })
      .toBe(368);
    expect(paths.filter(chunk('livekit-adapter'))).toHaveLength(1); // the click reused the prefetched chunk
    expect(paths.some(chunk('daily-adapter'))).toBe(false);
    expect(paths.some(chunk('validation'))).toBe(false); // a normal call never downloads the other schemas
    await page.locator('liveai-avatar').evaluate((el) => (el as unknown as { end(): Promise<void> }).end());
    await page.context().close();
  });

  it('a proxy that does not know its rooms’ transport: nothing downloads early; it learns from the first room', async () => {
    const { page, paths } = await open('/api/unknown');
    const start = page.locator('liveai-avatar').getByRole('button', { name: 'Start call' });
    await start.hover();
    await expect.poll(() => paths.includes('GET /api/unknown/transport'), { timeout: 30_000 }).toBe(true);
    await start.click();
    await expect
      .poll(() => page.locator('liveai-avatar').evaluate((el) => (el as unknown as { phase: string }).phase), { timeout: 60_000 })
      .toBe('active');
    // The LiveKit chunk came only once the create call had answered with a LiveKit room.
    expect(paths.findIndex(chunk('livekit-adapter'))).toBeGreaterThan(paths.indexOf('POST /api/unknown/rooms'));
    expect(paths.some(chunk('daily-adapter'))).toBe(false);
    expect(await page.evaluate(() => fetch('/api/unknown/transport').then((r) => r.json()))).toEqual({
      transport: 'rtc-a',
      server_url: inject('livekitUrl'), // learned from that room: the server only
    });
    await page.locator('liveai-avatar').evaluate((el) => (el as unknown as { end(): Promise<void> }).end());
    await page.context().close();
  });

  it('a proxy that names its rooms’ LiveKit server: the connection to it is warmed before the click; the call then joins', async () => {
    const { page, paths } = await open('/api/server');
    // livekit-client's prepareConnection: a HEAD request to the server's http(s) address
    const server = inject('livekitUrl').replace(/^ws/, 'http');
    const warmUps: string[] = [];
    const warnings: string[] = [];
    page.on('console', (m) => void (['warning', 'error'].includes(m.type()) && warnings.push(m.text())));
    page.on('request', (r) => {
      if (r.url().startsWith(server)) warmUps.push(`${r.method()} ${r.url()}`);
    });
    const start = page.locator('liveai-avatar').getByRole('button', { name: 'Start call' });
    await start.hover();
    await expect.poll(() => warmUps.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(warmUps).toEqual([`HEAD ${server}/`]);
    expect(paths).toContain('GET /api/server/transport');
    expect(paths.filter((p) => p.startsWith('POST /api/server/rooms'))).toEqual([]); // before any create

    await start.click();
    await expect
      .poll(() => page.locator('liveai-avatar').evaluate((el) => el.shadowRoot?.querySelector('video')?.videoWidth ?? 0), {
        timeout: 60_000,
      })
      .toBe(368);
    expect(warmUps).toEqual([`HEAD ${server}/`]); // once; the join itself goes over the WebSocket
    expect(warnings.filter((w) => /prepare/i.test(w))).toEqual([]); // the warm-up answered: nothing for the console
    await page.locator('liveai-avatar').evaluate((el) => (el as unknown as { end(): Promise<void> }).end());
    await page.context().close();
  });
});

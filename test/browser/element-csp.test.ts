import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchEngine, MEDIA_ENGINES, type EngineBrowser } from './driver';
import { ROOT, startStack, type Stack } from './harness';

/**
 * Issue 36.10: `<liveai-avatar>` on a page with a strict Content-Security-Policy (no `'unsafe-inline'` anywhere).
 * The page sends exactly the policy docs/components.md ("Content-Security-Policy") gives, with the LiveKit server and
 * the agent images' origin filled in. The element must render styled (computed styles of its shadow root, not the
 * browser's defaults), the browser must report no violation, and a call must play, in Chromium and in Firefox. Before
 * the fix, the shadow root's inline `<style>` was blocked and the widget rendered unstyled.
 */
let stack: Stack;
let server: Server;
let base = '';
let dir = '';

/** The policy of docs/components.md, with this test's LiveKit server and image origin. */
const policy = (livekitUrl: string, imageOrigin: string) => {
  const livekit = new URL(livekitUrl);
  const https = `${livekit.protocol === 'wss:' ? 'https:' : 'http:'}//${livekit.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${imageOrigin}`,
    `connect-src 'self' ${livekit.origin} ${https}`,
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'liveai-csp-'));
  await build({ configFile: join(ROOT, 'vite.element.config.ts'), root: ROOT, logLevel: 'error', build: { outDir: join(dir, 'vendor') } });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Strict CSP</title>
    <link rel="icon" href="data:," />
    <script src="/probe.js"></script>
    <script type="module" src="/vendor/liveai-avatar.js"></script>
  </head>
  <body>
    <liveai-avatar id="ada" agent-id="agent-demo" proxy-url="/api/avatar" inline initial-state="active" theme="dark" transport="rtc-a"></liveai-avatar>
  </body>
</html>
`,
  );
  // A classic script (no inline code under this policy): records violations and the element's events.
  writeFileSync(
    join(dir, 'probe.js'),
    `window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.phases = [];
document.addEventListener('liveai-phase', (e) => window.phases.push(e.detail.phase));
`,
  );
  stack = await startStack({ queueMs: 300 });
  const csp = policy(inject('livekitUrl'), new URL(stack.emulatorUrl).origin);
  const app = express();
  app.use('/api/avatar', (req, res) => {
    const up = httpRequest(`${stack.baseUrl}${req.originalUrl}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.status(502).end());
    req.pipe(up);
  });
  app.use((_req, res, next) => void (res.setHeader('Content-Security-Policy', csp), next()));
  app.use(express.static(dir));
  server = await new Promise<Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(MEDIA_ENGINES)('<liveai-avatar> under a strict Content-Security-Policy in %s (issue 36.10)', (engine) => {
  let browser: EngineBrowser;
  beforeAll(async () => {
    browser = await launchEngine(engine);
  });
  afterAll(() => browser?.close());

  it('renders styled, with no violation, and a call plays', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/index.html`);
    const styles = () =>
      page.evaluate(() => {
        const root = document.getElementById('ada')!.shadowRoot;
        const panel = root?.querySelector('.liveai-widget__panel');
        const start = [...(root?.querySelectorAll('button') ?? [])].find((b) => /Start call/.test(b.textContent ?? ''));
        return panel && start
          ? {
              panel: getComputedStyle(panel).backgroundColor,
              startCursor: getComputedStyle(start).cursor,
              inlineStyles: root!.querySelectorAll('style').length,
            }
          : null;
      });
    // The dark theme's panel colour, from the element's stylesheet (unstyled, it is transparent).
    await expect.poll(styles, { timeout: 30_000 }).toEqual({ panel: 'rgb(21, 23, 28)', startCursor: 'pointer', inlineStyles: 0 });

    await page.evaluate(() => (document.getElementById('ada') as unknown as { start(): Promise<void> }).start());
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { phases: string[] }).phases.at(-1)), { timeout: 60_000 })
      .toBe('active');
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const v = document.getElementById('ada')!.shadowRoot!.querySelector('video');
            return !!v && v.videoWidth === 368 && !v.paused;
          }),
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    await page.evaluate(() => (document.getElementById('ada') as unknown as { end(): Promise<void> }).end());
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(page.pageErrors).toEqual([]);
    await page.close();
  });
});

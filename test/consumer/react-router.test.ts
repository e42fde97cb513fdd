import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { inboundStatsScript, launchBrowser } from '../browser/harness';
import { requireApp, run, serve, within, type Served } from './helpers';
import { freePort, openWidget, playAvatar, proxyEnv, startEmulator } from './play';

/**
 * A React Router framework-mode app (react-router build, served by react-router-serve) from the installed tarball:
 * the proxy as a resource route on createAvatarHandler, the widget page, and the custom hooks UI of docs/core.md,
 * whose code prepare.mjs copies from the docs, so the docs' example is what runs here.
 */
describe('React Router framework mode', () => {
  const dir = requireApp('react-router');
  let emulator: Served;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    emulator = await startEmulator();
    ({ browser, context } = await launchBrowser());
    // As a reverse proxy in front of react-router-serve would (the resource route reads it with `clientIp`).
    await context.setExtraHTTPHeaders({ 'x-real-ip': '127.0.0.1' });
  });
  afterAll(async () => {
    await browser?.close();
    await emulator?.stop();
  });

  it('typechecks with skipLibCheck: false (react-router typegen, tsc)', async () => {
    const gen = await run('node_modules/.bin/react-router', ['typegen'], { cwd: dir });
    expect(gen.code, gen.stdout + gen.stderr).toBe(0);
    const r = await run('node_modules/.bin/tsc', ['--noEmit', '-p', '.'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('react-router build passes', async () => {
    const r = await run('node_modules/.bin/react-router', ['build'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('serves the resource route, the widget page and the docs hooks UI', { retry: 1 }, async () => {
    const port = await freePort();
    const server = await serve('node_modules/.bin/react-router-serve', ['./build/server/index.js'], {
      cwd: dir,
      env: { ...proxyEnv(emulator.url), PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
      ready: /react-router-serve\]? *(http:\/\/\S+)/,
    });
    const base = `http://127.0.0.1:${port}`;
    const step = <T>(what: string, ms: number, work: () => Promise<T>) => within(what, ms, work, server.output);
    try {
      await step('the resource route', 30_000, async () => {
        const api = await fetch(`${base}/api/avatar/sessions/abc`, { headers: { 'x-real-ip': '127.0.0.1' } });
        expect(api.status).toBe(401);
        expect(await api.json()).toEqual({ detail: expect.any(String) });
      });

      const { page, pageErrors } = await step('the widget page', 90_000, () => openWidget(context, `${base}/`));
      // The server-rendered Start button shows before React has hydrated the page; the page marks hydration.
      await page.waitForFunction(() => (window as unknown as { __liveai?: unknown }).__liveai !== undefined, null, { timeout: 60_000 });
      await step('a call with the local avatar', 240_000, () => playAvatar(page, 'react-router-widget'));
      expect(pageErrors).toEqual([]);
      await page.close();

      await step('the hooks UI of docs/core.md', 240_000, async () => {
        const hooks = await context.newPage();
        const errors: string[] = [];
        hooks.on('pageerror', (e) => errors.push(String(e)));
        await hooks.goto(`${base}/hooks`);
        await hooks.getByText('Phase: idle').waitFor({ timeout: 60_000 });
        await hooks.waitForFunction(() => (window as unknown as { __hydrated?: boolean }).__hydrated === true, null, { timeout: 60_000 });
        await hooks.getByRole('button', { name: 'Start', exact: true }).click();
        await hooks.getByText('Phase: active').waitFor({ timeout: 90_000 });
        // The docs' <video> shows the avatar: decoded 368×560 frames.
        await expect
          .poll(() => hooks.evaluate(inboundStatsScript).then((s) => s.framesDecoded), { timeout: 60_000, interval: 250 })
          .toBeGreaterThanOrEqual(25);
        await expect.poll(() => hooks.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBe(368);
        await hooks.getByLabel('Message').fill('Hello there');
        await hooks.getByRole('button', { name: 'Send' }).click();
        const transcript = hooks.getByRole('list', { name: 'Transcript' });
        await transcript.getByText('You: Hello there').waitFor({ timeout: 30_000 });
        await transcript
          .getByText(/^Avatar: /)
          .first()
          .waitFor({ timeout: 30_000 });
        await expect.poll(() => hooks.getByLabel('Events').textContent()).toMatch(/user_transcription.*agent_transcription/);
        mkdirSync('test-results/consumer', { recursive: true });
        await hooks.screenshot({ path: 'test-results/consumer/react-router-hooks.png', fullPage: true });
        await hooks.getByRole('button', { name: 'End', exact: true }).click();
        await hooks.getByText('Phase: ended').waitFor({ timeout: 30_000 });
        expect(await hooks.getByRole('alert').count()).toBe(0);
        expect(errors).toEqual([]);
        await hooks.close();
      });
    } finally {
      await server.stop();
    }
  });
});

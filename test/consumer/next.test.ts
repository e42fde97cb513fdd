import { writeFileSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../browser/harness';
import { requireApp, run, serve, within, type Served } from './helpers';
import { freePort, openWidget, playAvatar, probe, proxyEnv, startEmulator } from './play';

/**
 * A Next.js App Router app (widget page, hooks-only page, route handler on createAvatarHandler) built from the
 * installed tarball with webpack and with Turbopack, once with ONLY livekit-client installed and once with ONLY
 * @daily-co/daily-js. Each build is served with `next start`; the LiveKit build plays the local avatar.
 */
const sizes: Record<string, number> = {};
let emulator: Served;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  emulator = await startEmulator();
  ({ browser, context } = await launchBrowser());
  // As a platform proxy in front of `next start` would (the route handler reads it with `clientIp`).
  await context.setExtraHTTPHeaders({ 'x-real-ip': '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
  mkdirSync('test-results/consumer', { recursive: true });
  writeFileSync('test-results/consumer/next-first-load.json', `${JSON.stringify(sizes, null, 2)}\n`);
  console.log(`Next.js first load (gzip bytes of JS+CSS before the widget is ready): ${JSON.stringify(sizes)}`);
});

describe.each([
  { app: 'next-livekit', sdk: 'livekit-client' },
  { app: 'next-daily', sdk: '@daily-co/daily-js' },
])('Next.js with only $sdk installed', ({ app }) => {
  const dir = requireApp(app);

  // Next.js's own declarations do not pass `skipLibCheck: false` (they use URLPattern, which TypeScript's lib lacks),
  // so its build keeps skipLibCheck on; every file of the app that uses liveai-kit is checked with it off.
  it('the files that use liveai-kit typecheck with skipLibCheck: false (tsc)', async () => {
    const r = await run('node_modules/.bin/tsc', ['--noEmit', '-p', 'tsconfig.liveai.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  describe.each(['webpack', 'turbopack'])('%s', (bundler) => {
    const distDir = `.next-${bundler}`;

    it('next build passes', async () => {
      const r = await run('node_modules/.bin/next', ['build', ...(bundler === 'webpack' ? ['--webpack'] : ['--turbopack'])], {
        cwd: dir,
        env: { NEXT_DIST_DIR: distDir },
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/Module not found|Can't resolve/);
    });

    // One retry: a step of a third-party server that hangs on a loaded machine (seen once in CI) fails with its name
    // in the log, and a second `next start` on a fresh port decides.
    it('serves the widget page, the hooks page and the route handler', { retry: 1 }, async () => {
      const port = await freePort();
      const server = await serve('node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
        cwd: dir,
        env: { NEXT_DIST_DIR: distDir, ...proxyEnv(emulator.url) },
        ready: /Ready in|started server/i,
      });
      const base = `http://127.0.0.1:${port}`;
      // Each step has its own deadline, so a hang names the step and shows what `next start` printed.
      const step = <T>(what: string, ms: number, work: () => Promise<T>) => within(what, ms, work, server.output);
      try {
        await step('the hooks page', 60_000, async () => {
          const hooks = await context.newPage();
          await hooks.goto(`${base}/hooks`);
          await expect.poll(() => hooks.getByText('phase: idle').count(), { timeout: 30_000 }).toBe(1);
          await hooks.close();
        });

        await step('the route handler', 30_000, async () => {
          const api = await fetch(`${base}/api/avatar/sessions/abc`, { headers: { 'x-real-ip': '127.0.0.1' } });
          expect(api.status).toBe(401);
          expect(await api.json()).toEqual({ detail: expect.any(String) });
        });

        const { page, firstLoadGzip, pageErrors } = await step('the widget page', 90_000, () => openWidget(context, `${base}/`));
        sizes[`${app} ${bundler}`] = firstLoadGzip;
        if (app === 'next-livekit') {
          await step('a call with the local avatar', 240_000, () => playAvatar(page, `${app}-${bundler}`));
        } else {
          // The local service's rooms are LiveKit rooms: this page registered only Daily, so the widget reports
          // exactly what to install and import.
          await step('the missing-transport error', 90_000, async () => {
            await page.getByRole('button', { name: 'Start call' }).click();
            await page.waitForFunction(() => (window as unknown as { __liveai: { errors: unknown[] } }).__liveai.errors.length > 0, null, {
              timeout: 60_000,
            });
            const { errors } = await probe(page);
            expect(errors[0]).toMatchObject({ code: 'missing_peer' });
            expect(errors[0]!.detail).toMatch(/npm i livekit-client.*import 'liveai-kit\/livekit';/);
          });
        }
        expect(pageErrors).toEqual([]);
        await step('closing the page', 30_000, () => page.close());
      } finally {
        await server.stop();
      }
    });
  });
});

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import type { Page } from 'playwright-core';
import { inboundStatsScript } from '../browser/harness';
import { openWidget, proxyEnv, useServedStack, withServer } from './play';

/**
 * Issue 39.1: a Vue 3 + Vite app with `import 'liveai-kit/element'` and no React installed, from the packed tarball.
 * Before, its build failed with 29 `[MISSING_EXPORT] "createElement" is not exported by
 * "__vite-optional-peer-dep:react:liveai-kit"`. Its vite.config.ts and App.vue are docs/components.md's; the element's
 * events reach the Vue state and the test's probe; a call with the local avatar plays in Chromium.
 */
const stack = useServedStack();

describe('Vue + Vite app with liveai-kit/element (installed tarball, no React)', () => {
  const dir = requireApp('vue-element');

  it('has no React installed', () => {
    expect(existsSync(join(dir, 'node_modules/react'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules/react-dom'))).toBe(false);
  });

  it('vite build passes', async () => {
    const r = await run('node_modules/.bin/vite', ['build'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/MISSING_EXPORT/);
  });

  it('served with the Express proxy, the element plays the local avatar and its events reach the Vue state', { retry: 1 }, async () => {
    const start = () =>
      serve(process.execPath, ['server.mjs'], { cwd: dir, env: proxyEnv(stack.emulator.url), ready: /listening on (http:\/\/\S+)/ });
    await withServer(start, async (server, step) => {
      const { page, firstLoadGzip, pageErrors } = await step('the element page', 90_000, () => openWidget(stack.context, `${server.url}/`));
      mkdirSync('test-results/consumer', { recursive: true });
      writeFileSync('test-results/consumer/vue-element-first-load.json', `${JSON.stringify({ 'vue-element': firstLoadGzip })}\n`);
      expect(await page.evaluate(() => 'React' in window)).toBe(false);
      await step('a call with the local avatar', 240_000, async () => {
        await page.getByRole('button', { name: 'Start call' }).click();
        // The Vue state follows the element's liveai-phase events (the paragraph of App.vue).
        await page.getByText('Call: active').waitFor({ timeout: 90_000 });
        await page.getByRole('button', { name: 'Say hello' }).click();
        await page.locator('ol li', { hasText: 'user: Hello!' }).waitFor({ timeout: 30_000 });
      });
      await step('the avatar plays and the call ends', 240_000, () => playActive(page));
      expect(pageErrors).toEqual([]);
    });
  });
});

/** The call is already active: the same media checks as the other apps (frames, size, audio), then End. */
async function playActive(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const st = await page.evaluate(inboundStatsScript);
        return st.framesDecoded >= 25 && st.totalSamplesReceived > 0 && st.frameWidth === 368 && st.frameHeight === 560;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __liveai: { errors: unknown[] } }).__liveai.errors)).toEqual([]);
  mkdirSync('test-results/consumer', { recursive: true });
  await page.screenshot({ path: 'test-results/consumer/vue-element.png', fullPage: true });
  await page.getByRole('button', { name: /^End/ }).click();
  await page.getByText('Call: ended').waitFor({ timeout: 30_000 });
}

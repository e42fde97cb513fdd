import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * The session option `onMetric` in a real call (Chromium, real LiveKit, the local avatar service): the widget's page
 * gets the cold start and the first frame of its call, once each, as durations in ms.
 */
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: WidgetProbe }).__liveai);
const env = useBrowserStack({ queueMs: 300 });

describe('onMetric in a real call', () => {
  it('reports the cold start and the first frame of the call, once each, in ms', async () => {
    const page = await env.context.newPage();
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.firstFrameAt !== null, null, {
      timeout: 60_000,
    });
    await expect
      .poll(async () => (await probe(page)).metrics.map((m) => m.name).sort(), { timeout: 30_000 })
      .toEqual(['cold_start', 'first_frame']);
    const metrics = (await probe(page)).metrics;
    const coldStart = metrics.find((m) => m.name === 'cold_start');
    const firstFrame = metrics.find((m) => m.name === 'first_frame');
    expect(coldStart).toEqual({ name: 'cold_start', durationMs: expect.any(Number) });
    expect(firstFrame).toEqual({ name: 'first_frame', sinceStartMs: expect.any(Number) });
    // The service queued the session for 300 ms: the call cannot have been active, nor shown a frame, sooner.
    expect(coldStart!.durationMs).toBeGreaterThanOrEqual(300);
    expect(firstFrame!.sinceStartMs).toBeGreaterThanOrEqual(300);
    expect((await probe(page)).errors).toEqual([]);
    await page.getByRole('button', { name: /^End/ }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.ended !== null);
    await page.close();
  });
});

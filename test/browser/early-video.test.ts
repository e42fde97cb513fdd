import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * The avatar's video when it is already publishing as the room is joined: the widget shows its first frame, one video
 * track for the call, the phases `creating → (connecting →) active`, and "Connecting…" leaves the stage only when the
 * video has a frame to show. Public behaviour only: the LiveKit adapter takes the avatar's tracks from
 * livekit-client's `TrackSubscribed`.
 */
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: WidgetProbe }).__liveai);

// The avatar is already publishing when the create call answers, so its tracks are in the room the widget joins.
const env = useBrowserStack({ queueMs: 0, answerWhenActive: true });

describe("the avatar's video when it is already publishing", () => {
  it('shows the first frame of one video track, replaces "Connecting…" only then, plays, and chats at once', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.firstFrameAt !== null, null, {
      timeout: 30_000,
    });
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.connections.includes('connected'));

    const p = await probe(page);
    // `connecting` is seen when the track came before its first packets and lasts until they arrive; React may see
    // it and `active` in one render.
    expect(['creating,connecting,active', 'creating,active']).toContain(p.storePhases.join());
    expect(p.phases.at(-1)).toBe('active');
    expect(p.videoTracks).toBe(1);
    expect(p.errors).toEqual([]);
    // The stage shows the live video (not the connecting overlay), and it plays at the avatar's size.
    await expect.poll(() => page.locator('.liveai-stage[data-has-video]').count()).toBe(1);
    expect(await page.getByText(/Connecting/).count()).toBe(0);
    // "Connecting…" left the stage only once the video had a frame to show (HAVE_CURRENT_DATA or more).
    expect((await probe(page)).overlayLeftAtReadyState).toBeGreaterThanOrEqual(2);
    const video = await page.evaluate(() => {
      const v = document.querySelector('video')!;
      return { width: v.videoWidth, height: v.videoHeight, playing: !v.paused };
    });
    expect(video).toEqual({ width: 368, height: 560, playing: true });
    mkdirSync('test-results/e2e', { recursive: true });
    await page.screenshot({ path: 'test-results/e2e/early-video.png' });

    // Chat works right away.
    const chat = page.getByRole('textbox', { name: 'Message' });
    await chat.fill('Are you there?');
    await chat.press('Enter');
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.heard.includes('Are you there?'));
    await page.getByRole('button', { name: /^End/ }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.ended !== null);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inboundStatsScript, ROOT, useBrowserStack } from './harness';
import type { AudioProbe } from './pages/audio-resume';

/**
 * Issue 40.4, sound that comes back, in real Chromium against the real proxy, the local service and LiveKit: a call
 * whose page goes to the background while the browser stops its audio (what Safari and iOS do on an interrupted
 * audio session or a route change: they pause the element; Chromium never does it by itself, so the page pauses it
 * as they would), and whose output device changes meanwhile (Chromium's fake speakers) — once the page is shown
 * again the avatar's audio plays on the chosen speaker, without "Tap to unmute". The page's visibility is set with
 * a document override (headless Chromium has no hidden tabs) and the `visibilitychange` event the browser fires.
 */
const SHOTS = process.env.LIVEAI_SHOTS ?? join(ROOT, 'test-results/audio-resume');
mkdirSync(SHOTS, { recursive: true });

/** The session's audio element that carries the avatar's track: paused, current time (s), output device. */
const playback = (page: Page) =>
  page.evaluate(() => {
    const { elements, session } = (window as unknown as { __audio: AudioProbe }).__audio;
    const el = elements.find((e) => (e.srcObject as MediaStream | null)?.getAudioTracks().length);
    return el
      ? {
          paused: el.paused,
          time: el.currentTime,
          sinkId: (el as HTMLAudioElement & { sinkId: string }).sinkId,
          blocked: session.store.getState().media.audioBlocked,
        }
      : null;
  });
const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);

describe('the avatar audio comes back (issue 40.4)', () => {
  const env = useBrowserStack({ queueMs: 200 });

  it('hidden page, playback stopped by the browser, another speaker chosen: shown again, the avatar is heard there', async () => {
    const page = await env.context.newPage();
    try {
      await page.goto(`${env.stack.baseUrl}/test/browser/pages/audio-resume.html`);
      await page.getByRole('button', { name: 'Call' }).click();
      await page.waitForFunction(() => (window as unknown as { __audio: AudioProbe }).__audio.phases.includes('active'), null, {
        timeout: 60_000,
      });
      await expect.poll(async () => (await playback(page))?.paused, { timeout: 30_000 }).toBe(false);
      const samples = async () => (await page.evaluate(inboundStatsScript)).totalSamplesReceived;
      await expect.poll(samples, { timeout: 30_000 }).toBeGreaterThan(0);
      const before = await samples();

      await setVisibility(page, 'hidden');
      // The browser stops the audio (an interruption, a route change), as Safari does.
      await page.evaluate(() => (window as unknown as { __audio: AudioProbe }).__audio.elements.forEach((e) => e.pause()));
      const speaker = await page.evaluate(async () => {
        const outputs = (await navigator.mediaDevices.enumerateDevices()).filter(
          (d) => d.kind === 'audiooutput' && d.deviceId !== 'default',
        );
        const id = outputs.at(-1)!.deviceId;
        await (window as unknown as { __audio: AudioProbe }).__audio.session.setDevice('audiooutput', id);
        return id;
      });
      expect(speaker).toBeTruthy();
      // Hidden: nothing is reported as blocked (no gesture is needed for a page that is not shown).
      expect((await playback(page))?.blocked).toBe(false);

      await setVisibility(page, 'visible');
      await expect.poll(async () => (await playback(page))?.paused, { timeout: 15_000 }).toBe(false);
      const shown = (await playback(page))!;
      expect(shown.sinkId).toBe(speaker);
      expect(shown.blocked).toBe(false);
      // It plays: the element's clock moves on, and the room keeps delivering the avatar's audio.
      await expect.poll(async () => (await playback(page))!.time, { timeout: 15_000 }).toBeGreaterThan(shown.time);
      await expect.poll(samples, { timeout: 15_000 }).toBeGreaterThan(before);
      await page.screenshot({ path: join(SHOTS, 'shown-again.png') });
      await page.evaluate(() => (window as unknown as { __audio: AudioProbe }).__audio.session.end());
    } finally {
      await page.close();
    }
  });
});

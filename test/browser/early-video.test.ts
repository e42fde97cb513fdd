import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './harness';
import type { EngineStep } from './pages/engine';
import type { WidgetProbe } from './pages/widget';

/**
 * The avatar's video while the room is still joining: WebRTC has the avatar's tracks before livekit-client's
 * connect() resolves (it notices the connection by polling every 50 ms and holds `TrackSubscribed` until then).
 * The widget takes them from livekit-client's engine as they come, so the first frame shows when it is decoded.
 * This is the one internal livekit-client hook the adapter uses: the first test checks it with livekit-client alone,
 * so an upgrade that takes it away fails here; the second, what the widget shows with it.
 */
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: WidgetProbe }).__liveai);

// The avatar is already publishing when the create call answers, so its tracks are in the room the widget joins.
const env = useBrowserStack({ queueMs: 0, answerWhenActive: true });

describe("the avatar's video while the room is joining", () => {
  it("livekit-client's engine has the avatar's tracks before Connected, in streams named by a participant it knows", async () => {
    // What the adapter relies on, with livekit-client alone: if an upgrade changes it, this fails.
    const page = await env.context.newPage();
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/engine.html`);
    const steps = await page.evaluate(() => (window as unknown as { __join: () => Promise<EngineStep[]> }).__join());
    const connectedAt = steps.findIndex((s) => s.step === 'connected');
    const early = steps.slice(0, connectedAt).filter((s) => s.step === 'mediaTrackAdded');
    expect(connectedAt).toBeGreaterThan(0);
    // Tracks in the join's first negotiation come before Connected; LiveKit may offer the second of the avatar's two
    // tracks in a later one, after it (both orders were seen), and the adapter then takes it from TrackSubscribed.
    expect(early.length).toBeGreaterThan(0);
    expect(early.every((s) => s.step === 'mediaTrackAdded' && s.knownParticipant)).toBe(true);
    expect(
      steps
        .slice(connectedAt + 1)
        .filter((s) => s.step === 'trackSubscribed')
        .map((s) => `${s.step} ${s.kind}`)
        .sort(),
    ).toEqual(['trackSubscribed audio', 'trackSubscribed video']);
    await page.close();
  });

  it('reaches the stage before the room reports itself connected, replaces "Connecting…" at its first frame, plays, and is the same track once connected', async () => {
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

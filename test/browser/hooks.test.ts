import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEDIA_ENGINES } from './driver';
import { inboundStatsScript, useEngineStack } from './harness';
import type { HooksProbe } from './pages/hooks';

/**
 * Issue 25: an app that builds its own UI on the hooks alone (useSession, useMedia, useTranscript, useControl,
 * useAvatarEvents), in Chromium and Firefox, on a real LiveKit room: call, video and audio arrive, a chat line gets
 * the avatar's answer in the transcript, hang up.
 */
const hooks = () => (window as unknown as { __hooks: HooksProbe }).__hooks;

describe.each(MEDIA_ENGINES)('hooks page in %s (issue 25)', (engine) => {
  const env = useEngineStack(engine, { queueMs: 300 });

  it('call → video and audio → chat and transcript → hang up', async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/hooks.html`);
    await page.byRole('button', 'Call').click();
    await page.waitForFunction(() => (window as unknown as { __hooks: HooksProbe }).__hooks.phases.includes('active'), 60_000);
    await expect
      .poll(
        async () => {
          const st = await page.evaluate(inboundStatsScript);
          return st.framesDecoded >= 25 && st.frameWidth === 368 && st.totalSamplesReceived > 0;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    await expect.poll(() => page.evaluate(() => document.querySelector('video')!.videoWidth)).toBe(368);

    const say = page.byRole('textbox', 'Say');
    await say.fill('Hello from the hooks');
    await say.press('Enter');
    await expect.poll(() => page.countText('user: Hello from the hooks'), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.countText(/^agent: /), { timeout: 30_000 }).toBeGreaterThan(0);
    // The page publishes nothing, so LiveKit announces it to the avatar only in its next batch of participant
    // updates (every 3 s): a page that joins after the avatar's room-wide `bot_ready` gets the addressed re-send then.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __hooks: HooksProbe }).__hooks.events.includes('bot_ready')), {
        timeout: 15_000,
      })
      .toBe(true);
    mkdirSync(`test-results/hooks/${engine}`, { recursive: true });
    await page.screenshot({ path: `test-results/hooks/${engine}/live.png`, fullPage: true });

    await page.byRole('button', 'Hang up').click();
    await page.waitForFunction(() => (window as unknown as { __hooks: HooksProbe }).__hooks.phases.includes('ended'));
    const p = await page.evaluate(hooks);
    expect(p.errors).toEqual([]);
    expect(page.pageErrors).toEqual([]);
    await page.close();
  });
});

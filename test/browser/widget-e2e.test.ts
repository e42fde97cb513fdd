import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API_KEY, inboundStatsScript, useBrowserStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Issue 2, the main job end to end: the drop-in widget, the real proxy, the local service publishing a
 * synthetic avatar into a real LiveKit room, and real Chromium receiving it.
 */
type Probe = WidgetProbe;
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);

// Queued long enough that the first status poll (sent once the room join settles, at the latest 1 s after the
// create answer) sees QUEUED even on a loaded machine: with 500 ms, a slow join let it see ACTIVE first (CI).
const env = useBrowserStack({ queueMs: 2500 });
const bodies: string[] = [];

describe('drop-in widget on a real LiveKit room (issue 2)', () => {
  it('starts, shows a live talking avatar, chats, and ends with a cost', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    page.on('response', async (res) => {
      const headers = JSON.stringify(await res.allHeaders());
      const body = await res.text().catch(() => '');
      bodies.push(`${res.url()}\n${headers}\n${body}`);
    });
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.getByRole('button', { name: 'Start call' }).click();

    // queued → active, and bot_ready on the event topic.
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.events.some((e) => e.type === 'bot_ready'), null, {
      timeout: 30_000,
    });
    const phases = (await probe(page)).phases;
    expect(phases).toContain('queued');
    expect(phases.indexOf('queued')).toBeLessThan(phases.indexOf('active'));

    // The <video> decodes at least 50 frames of 368×560, and audio samples arrive.
    await expect
      .poll(
        async () => {
          const st = await page.evaluate(inboundStatsScript);
          return st.framesDecoded >= 50 && st.totalSamplesReceived > 0;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    const stats = await page.evaluate(inboundStatsScript);
    expect(stats.framesDecoded).toBeGreaterThanOrEqual(50);
    expect(stats.frameWidth).toBe(368);
    expect(stats.frameHeight).toBe(560);
    expect(stats.totalSamplesReceived).toBeGreaterThan(0);
    const video = await page.evaluate(() => {
      const v = document.querySelector('video')!;
      return { width: v.videoWidth, height: v.videoHeight, playing: !v.paused };
    });
    expect(video).toEqual({ width: 368, height: 560, playing: true });

    // A chat message produces the user's and the agent's transcription, shown in the transcript.
    const chat = page.getByRole('textbox', { name: 'Message' });
    await chat.fill('Hello avatar, how are you?');
    await chat.press('Enter');
    await page.waitForFunction(
      () => (window as unknown as { __liveai: Probe }).__liveai.events.some((e) => e.type === 'agent_transcription'),
      null,
      { timeout: 30_000 },
    );
    const events = (await probe(page)).events;
    expect(events.find((e) => e.type === 'user_transcription')?.transcription).toBe('Hello avatar, how are you?');
    const agentLine = events.find((e) => e.type === 'agent_transcription')!.transcription!;
    await expect.poll(() => page.getByText(agentLine).count()).toBeGreaterThan(0);

    mkdirSync('test-results/e2e', { recursive: true });
    await page.screenshot({ path: 'test-results/e2e/live-avatar.png', fullPage: true });

    // Ending gives COMPLETED with a cost, shown to the user.
    await page.getByRole('button', { name: /^End/ }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.ended !== null, null, { timeout: 30_000 });
    const ended = (await probe(page)).ended!;
    expect(typeof ended.cost).toBe('number');
    await expect.poll(() => page.getByText(/This call used/).count()).toBe(1);
    await page.screenshot({ path: 'test-results/e2e/ended.png', fullPage: true });

    const list = await fetch(`${env.stack.emulatorUrl}/liveai/sessions`, { headers: { 'X-API-Key': API_KEY } }).then((r) => r.json());
    expect(list.sessions).toHaveLength(1);
    expect(list.sessions[0].session_status).toBe('COMPLETED');

    // No response the page received carries the API key or the LiveKit secret.
    expect(bodies.length).toBeGreaterThan(3);
    for (const b of bodies) expect(b).not.toContain(API_KEY);
    // The proxy's answers never carry the upstream control URL (page sources may mention the field name).
    const apiBodies = bodies.filter((b) => b.startsWith(`${env.stack.baseUrl}/api/avatar`));
    expect(apiBodies.length).toBeGreaterThan(2);
    for (const b of apiBodies) expect(b).not.toContain('control_url');
    expect((await probe(page)).errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    // A plain call (create, join, events, chat, end) never downloads zod (the schemas load only for a bad answer or
    // message, or for control events), the control commands, the transcript merger (LiveKit Agents' rooms only) or
    // the chroma key (only for a stage given `chromaKey`).
    expect(requested.filter((u) => /zod|core\/validation|control-commands|transcript-merge|chroma-key/.test(u))).toEqual([]);
  });
});

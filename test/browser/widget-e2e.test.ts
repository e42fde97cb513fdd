import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_ENGINES, type TestPage } from './driver';
import { API_KEY, inboundStatsScript, useEngineStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Issue 2, the main job end to end: the drop-in widget, the real proxy, the local service publishing a
 * synthetic avatar into a real LiveKit room, and a real browser receiving it: Chromium and Firefox (issue 25).
 */
type Probe = WidgetProbe;
const probe = (page: TestPage) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);

/** Mean RGB of the top-left background corner of the frame the avatar <video> shows (drawn into a canvas). */
const cornerRgb = (page: TestPage) =>
  page.evaluate(() => {
    const v = document.querySelector('video');
    if (!v || v.videoWidth === 0) return [0, 0, 0];
    const c = document.createElement('canvas');
    [c.width, c.height] = [v.videoWidth, v.videoHeight];
    const ctx = c.getContext('2d')!;
    ctx.drawImage(v, 0, 0);
    const px = ctx.getImageData(6, 6, 40, 60).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < px.length; i += 4) for (let k = 0; k < 3; k++) sum[k]! += px[i + k]!;
    return sum.map((x) => Math.round(x / (px.length / 4)));
  });

// A plain green portrait on a loopback server, as the new look of the image swap (the local service fetches it).
let files: Server;
let greenUrl = '';
beforeAll(async () => {
  const green = await sharp({ create: { width: 368, height: 560, channels: 3, background: { r: 50, g: 190, b: 70 } } })
    .jpeg()
    .toBuffer();
  files = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(green));
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  greenUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/green.jpg`;
});
afterAll(() => new Promise((r) => files?.close(r)));

describe.each(MEDIA_ENGINES)('drop-in widget on a real LiveKit room in %s (issues 2, 25)', (engine) => {
  // Queued long enough that the first status poll (sent once the room join settles, at the latest 1 s after the
  // create answer) sees QUEUED even on a loaded machine: with 500 ms, a slow join let it see ACTIVE first (CI).
  const env = useEngineStack(engine, { queueMs: 2500 });
  const bodies: string[] = [];

  it('starts, shows a live talking avatar, chats, swaps its image, and ends with a cost', async () => {
    const page = await env.browser.newPage();
    const { pageErrors, requested } = page;
    page.onResponse(({ url, headers, body }) => bodies.push(`${url}\n${headers}\n${body}`));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html?images`);
    await page.byRole('button', 'Start call').click();

    // queued → active, and bot_ready on the event topic.
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('active'), 60_000);
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.events.some((e) => e.type === 'bot_ready'));
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
    const chat = page.byRole('textbox', 'Message');
    await chat.fill('Hello avatar, how are you?');
    await chat.press('Enter');
    await page.waitForFunction(() =>
      (window as unknown as { __liveai: Probe }).__liveai.events.some((e) => e.type === 'agent_transcription'),
    );
    const events = (await probe(page)).events;
    expect(events.find((e) => e.type === 'user_transcription')?.transcription).toBe('Hello avatar, how are you?');
    const agentLine = events.find((e) => e.type === 'agent_transcription')!.transcription!;
    await expect.poll(() => page.countText(agentLine)).toBeGreaterThan(0);

    const shots = `test-results/e2e/${engine}`;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: `${shots}/live-avatar.png`, fullPage: true });

    // A plain call (create, join, events, chat) never downloads zod (the schemas load only for a bad answer or
    // message, or for control events such as the image swap below), the control commands, the transcript merger
    // (LiveKit Agents' rooms only) or the chroma key (only for a stage given `chromaKey`).
    expect(requested.filter((u) => /zod|core\/validation|control-commands|transcript-merge|chroma-key/.test(u))).toEqual([]);

    // The image swapper: a URL typed in, previewed and applied; the service confirms and the video turns green.
    // "Change look" is under "More options".
    await page.byRole('button', 'More options').click();
    await page.clickText('Change look');
    await page.byRole('textbox', 'Image URL').fill(greenUrl);
    await page.byRole('button', 'Preview').click();
    await page.byRole('button', 'Apply new look').click();
    await page.waitForFunction(() =>
      (window as unknown as { __liveai: Probe }).__liveai.events.some((e) => e.type === 'image_change_complete'),
    );
    await expect.poll(() => page.countText('New look applied.')).toBe(1);
    await expect
      .poll(async () => {
        const [r, g, b] = await cornerRgb(page);
        return g! > r! + 60 && g! > b! + 60;
      })
      .toBe(true);
    await page.screenshot({ path: `${shots}/new-look.png`, fullPage: true });

    // Ending gives COMPLETED with a cost: the page's onEnd gets it; the visitor sees "Call ended", not the cost.
    await page.byRole('button', /^End/).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.ended !== null);
    const ended = (await probe(page)).ended!;
    expect(typeof ended.cost).toBe('number');
    await expect.poll(() => page.countText('Call ended')).toBe(1);
    expect(await page.countText(/credit/)).toBe(0);
    await page.screenshot({ path: `${shots}/ended.png`, fullPage: true });

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
  });
});

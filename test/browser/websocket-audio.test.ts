import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createSealer } from '../../src/server/session/handle';
import { SESSION_SECRET, inboundStatsScript, useBrowserStack } from './harness';
import type { MouthSample } from './pages/frames';

/**
 * Issue 5, websocket-rtc-a in the real browser: a session created through the proxy, joined by the rtc-a engine in
 * Chromium; the page streams speech-like PCM16 16 kHz to `websocket_address` (streamPcmToWebSocket) and the decoded
 * avatar video shows the mouth moving while the audio plays, and still once it stops.
 */
type WsProbe = {
  phases: string[];
  events: string[];
  errors: { code: string; detail: string }[];
  mouth: MouthSample[];
  audio: { t: number; level: number; rms: number }[];
};
type Spoken = { start: number; end: number; framesSent: number; address: string } | { error: string };
const SHOTS = 'test-results/websocket-audio';
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __ws: WsProbe }).__ws);
/** Waits until the page has sampled `n` video frames after time `after` (performance.now ms). */
const framesAfter = (page: Page, after: number, n: number) =>
  page.waitForFunction(([a, k]) => (window as unknown as { __ws: WsProbe }).__ws.mouth.filter((m) => m.t > a!).length >= k!, [after, n], {
    timeout: 20_000,
  });

/** How the mouth region behaved over frames: range of dark-pixel count, mean and 90th-percentile |Δ| per frame. */
function mouthStats(s: MouthSample[]) {
  const dark = s.map((m) => m.dark);
  const diffs = s.map((m) => m.diff).sort((a, b) => a - b);
  return {
    frames: s.length,
    darkRange: Math.max(...dark) - Math.min(...dark),
    meanDiff: diffs.reduce((a, b) => a + b, 0) / diffs.length,
    p90Diff: diffs[Math.floor(diffs.length * 0.9)]!,
  };
}
const peak = (a: { level: number; rms: number }[]) => ({
  level: Math.max(0, ...a.map((x) => x.level)),
  rms: Math.max(0, ...a.map((x) => x.rms)),
});

const env = useBrowserStack({ queueMs: 300 });

describe('websocket-rtc-a: streamed audio moves the mouth (issue 5)', () => {
  it('creates the session through the proxy, streams PCM to websocket_address, and the video mouth follows the audio', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/avatar/sessions'));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/websocket-audio.html`);
    await page.getByRole('button', { name: 'Start call' }).click();

    // The proxy made the LiveKit tokens: the browser sent only the spec fields and got room_url + token + websocket_address.
    const res = await created;
    expect(res.request().postDataJSON()).toEqual({ agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' });
    expect(res.status()).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ transport: 'websocket-rtc-a', room_url: expect.stringMatching(/^ws:\/\//), token: expect.any(String) });
    // The proxy's relay, never the service's own address (which takes audio from anyone who knows it).
    expect(body.websocket_address).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/api\/avatar\/sessions\/[^/]+\/ws\?ticket=/);
    expect(body.websocket_address).not.toContain('/liveai/ws/');
    expect(JSON.stringify(body)).not.toContain('control_url');

    await page.waitForFunction(() => (window as unknown as { __ws: WsProbe }).__ws.phases.includes('active'), null, { timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { __ws: WsProbe }).__ws.events.includes('bot_ready'), null, { timeout: 30_000 });
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(25);

    // Silence first: 50 frames with nothing streamed.
    mkdirSync(SHOTS, { recursive: true });
    const t0 = await page.evaluate(() => performance.now());
    await framesAfter(page, t0, 50);

    // Stream 3 s of speech-like audio (an AudioBuffer, sent as 20 ms PCM16 16 kHz frames in real time).
    await page.evaluate(() => (window as unknown as { __ws: { speak(s: number): void } }).__ws.speak(3));
    // While it plays, a frame with the mouth wide open (far more dark pixels than any silent frame) shows up.
    const silentMax = Math.max(...(await probe(page)).mouth.filter((m) => m.t > t0).map((m) => m.dark));
    await page.waitForFunction(
      ([since, dark]) => (window as unknown as { __ws: WsProbe }).__ws.mouth.some((m) => m.t > since! && m.dark > dark!),
      [t0, silentMax + 400],
      { timeout: 10_000, polling: 'raf' },
    );
    await page.screenshot({ path: `${SHOTS}/speaking.png`, fullPage: true });
    const spoken = (await page
      .waitForFunction(() => (window as unknown as { __ws: { spoken: Spoken | null } }).__ws.spoken, null, { timeout: 15_000 })
      .then((h) => h.jsonValue())) as Spoken;
    if ('error' in spoken) throw new Error(spoken.error);
    expect(spoken.address).toBe(body.websocket_address);
    expect(spoken.framesSent).toBe(150); // 3 s of 20 ms frames
    // The service got every frame on that session's socket (through the proxy's relay: the page holds a handle, the
    // service knows the session by its own id).
    const serviceId = (await createSealer(new TextEncoder().encode(SESSION_SECRET)).open(String(body.session_id))).sessionId;
    await expect.poll(() => env.stack.emulator.state.session(serviceId)?.websocket.frames, { timeout: 5000 }).toBe(150);
    const served = env.stack.emulator.state.session(serviceId);
    expect(served).toMatchObject({ transport_type: 'websocket-rtc-a', media_joined: true, websocket: { frames: 150, bytes: 150 * 640 } });

    // After: wait until the received audio is quiet again (5 polls in a row), then 50 more frames.
    const quietAt = (await page
      .waitForFunction(
        (end) => {
          const a = (window as unknown as { __ws: WsProbe }).__ws.audio.filter((x) => x.t > end);
          for (let i = 5; i <= a.length; i++) if (a.slice(i - 5, i).every((x) => x.level < 0.005)) return a[i - 1]!.t;
          return false;
        },
        spoken.end,
        { timeout: 15_000, polling: 100 },
      )
      .then((h) => h.jsonValue())) as number;
    await framesAfter(page, quietAt, 50);
    await page.screenshot({ path: `${SHOTS}/quiet.png`, fullPage: true });

    const p = await probe(page);
    const silent = mouthStats(p.mouth.filter((m) => m.t > t0 && m.t < spoken.start));
    // Skip the first 700 ms: the avatar plays (and moves its mouth) after its small audio buffer fills.
    const speaking = mouthStats(p.mouth.filter((m) => m.t > spoken.start + 700 && m.t < spoken.end));
    const after = mouthStats(p.mouth.filter((m) => m.t > quietAt).slice(0, 50));
    const heardBefore = peak(p.audio.filter((a) => a.t > t0 && a.t < spoken.start));
    const heard = peak(p.audio.filter((a) => a.t > spoken.start && a.t < spoken.end + 500));
    const report = { silent, speaking, after, heardBefore, heard };

    // The mouth opens and closes with the syllables while the audio plays…
    expect(speaking.frames, JSON.stringify(report)).toBeGreaterThan(25);
    expect(speaking.darkRange, JSON.stringify(report)).toBeGreaterThan(400);
    expect(speaking.meanDiff, JSON.stringify(report)).toBeGreaterThan(4 * Math.max(silent.meanDiff, after.meanDiff, 0.25));
    // …and stays still before and after (only the gentle idle motion).
    for (const quiet of [silent, after]) {
      expect(quiet.frames).toBeGreaterThanOrEqual(50);
      expect(quiet.darkRange, JSON.stringify(report)).toBeLessThan(150);
      expect(quiet.meanDiff, JSON.stringify(report)).toBeLessThan(2);
    }
    // The browser receives the avatar's audio: silence before, clearly audible speech while it plays.
    expect(heardBefore.level, JSON.stringify(report)).toBeLessThan(0.01);
    expect(heard.level, JSON.stringify(report)).toBeGreaterThan(0.1);
    expect(heard.rms, JSON.stringify(report)).toBeGreaterThan(0.02);

    // The call is still going and nothing went wrong on the page.
    expect(p.phases.at(-1)).toBe('active');
    expect(p.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

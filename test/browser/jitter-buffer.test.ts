import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { behindImpairedLink, collectPeerConnections, useBrowserStack, type ImpairedBrowser } from './harness';

/**
 * Issue 29, freezes on a lossy link: the session option `jitterBufferTargetMs` reaches the browser. On a real
 * LiveKit room, a number puts the target on Chromium's receivers of the avatar's video and audio (the standard
 * `RTCRtpReceiver.jitterBufferTarget`), and the received video's statistics show the jitter buffer aiming for it
 * (getStats `jitterBufferTargetDelay` per emitted frame: Chromium reports about 12 ms under the target, so at least
 * 85 % of it); `0` leaves the receivers without a target. The default, `'auto'`, leaves them without one over 10 s
 * of playback on this clean loopback link (it raises the target only while the video loses packets). (The browser's own buffer is not asserted: it grows with
 * the machine's load, to 140 ms on this shared machine, while on an idle link it stays near 30 ms.)
 */
const env = useBrowserStack({ queueMs: 0 });

interface Seen {
  /** jitterBufferTarget of the receivers that receive media, by kind (null: the browser's own). */
  targets: Record<string, number | null>;
  /** The received video's jitterBufferTargetDelay (s, summed over emitted frames) and jitterBufferEmittedCount. */
  targetDelay: number;
  emitted: number;
  frames: number;
}

/** The receivers' targets and the received video's jitter buffer statistics, from the page's peer connections. */
const readSeen = (page: Page) =>
  page.evaluate(async (): Promise<Seen> => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState !== 'closed');
    const targets: Record<string, number | null> = {};
    let targetDelay = 0;
    let emitted = 0;
    let frames = 0;
    for (const pc of pcs) {
      const receivers = pc.getReceivers() as Array<RTCRtpReceiver & { jitterBufferTarget: number | null }>;
      for (const s of (await pc.getStats()).values() as IterableIterator<Record<string, number | string>>) {
        // The receivers media arrives on (a connection also has receivers of transceivers that carry nothing).
        if (s.type !== 'inbound-rtp' || !Number(s.packetsReceived)) continue;
        const r = receivers.find((x) => x.track.id === s.trackIdentifier);
        if (r) targets[String(s.kind)] = r.jitterBufferTarget;
        if (s.kind !== 'video' || !Number(s.jitterBufferEmittedCount)) continue;
        frames = Number(s.framesDecoded);
        targetDelay = Number(s.jitterBufferTargetDelay);
        emitted = Number(s.jitterBufferEmittedCount);
      }
    }
    return { targets, targetDelay, emitted, frames };
  });

/** Joins with `?query`; `watchFrames`: also watch that many more decoded frames, collecting every `kind target` seen. */
async function call(query: string, watchFrames = 0): Promise<{ targets: Seen['targets']; videoTargetMs: number; watched: Set<string> }> {
  const page = await env.context.newPage();
  try {
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/jitter-buffer.html${query}`);
    await page.getByRole('button', { name: 'Call' }).click();
    const probe = () => (window as unknown as { __jbt: { phases: string[]; errors: string[] } }).__jbt;
    await page.waitForFunction(() => (window as unknown as { __jbt: { phases: string[] } }).__jbt.phases.includes('active'), null, {
      timeout: 60_000,
    });
    const read = () => readSeen(page);
    // The jitter buffer's target over 50 frames once playing (the first frames play while the buffer fills).
    await expect.poll(async () => (await read()).frames, { timeout: 30_000, interval: 250 }).toBeGreaterThan(25);
    const before = await read();
    await expect.poll(async () => (await read()).emitted - before.emitted, { timeout: 30_000, interval: 250 }).toBeGreaterThan(50);
    const after = await read();
    // Watching: the receivers' targets at every read until the video decoded `watchFrames` more frames.
    const watched = new Set<string>();
    await expect
      .poll(
        async () => {
          const now = await read();
          for (const [kind, target] of Object.entries(now.targets)) watched.add(`${kind} ${target}`);
          return now.frames - after.frames;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(watchFrames);
    const seen = {
      targets: after.targets,
      videoTargetMs: ((after.targetDelay - before.targetDelay) / (after.emitted - before.emitted)) * 1000,
      watched,
    };
    expect(await page.evaluate(probe)).toMatchObject({ errors: [] });
    await page.evaluate(() => document.querySelector('video')!.videoWidth).then((w) => expect(w).toBe(368));
    return seen;
  } finally {
    await page.close();
  }
}

describe('jitterBufferTargetMs on a real LiveKit room (issue 29)', () => {
  it('by default (auto) a clean link keeps the browser’s own buffer: no target over 10 s of playback', async () => {
    // The page renders 25 fps: 250 frames are 10 s, five of the adaptive target's samples.
    const seen = await call('', 250);
    expect(seen.targets).toEqual({ video: null, audio: null });
    expect([...seen.watched].sort()).toEqual(['audio null', 'video null']);
  });

  it('a number is set on the receivers and the video’s jitter buffer aims for it; 0 leaves the browser its own', async () => {
    const fixed = await call('?jbt=200');
    expect(fixed.targets).toEqual({ video: 200, audio: 200 });
    expect(fixed.videoTargetMs).toBeGreaterThanOrEqual(0.85 * 200);
    const high = await call('?jbt=300');
    expect(high.targets).toEqual({ video: 300, audio: 300 });
    expect(high.videoTargetMs).toBeGreaterThanOrEqual(0.85 * 300);
    const own = await call('?jbt=0');
    expect(own.targets).toEqual({ video: null, audio: null });
  });
});

describe.skipIf(process.env.LIVEAI_IN_NETNS !== '1')("jitterBufferTargetMs 'auto' behind a lossy link (issue 29)", () => {
  let impaired: ImpairedBrowser | undefined;
  afterAll(() => impaired?.close());

  it('at 2 % loss and an 80 ms round trip the avatar’s receivers are raised to 200 ms', async () => {
    // The bench's lossy link: 40 ± 10 ms each way, 2 % of packets dropped each way.
    impaired = await behindImpairedLink(env.stack, { delayMs: 40, jitterMs: 10, loss: 0.02 });
    const page = await impaired.newPage();
    await page.addInitScript(collectPeerConnections);
    await page.goto(`${impaired.base}/test/browser/pages/jitter-buffer.html#${encodeURIComponent(JSON.stringify(await impaired.room()))}`);
    await page.getByRole('button', { name: 'Call' }).click();
    await expect.poll(() => page.evaluate(() => document.querySelector('video')!.videoWidth), { timeout: 90_000 }).toBe(368);
    // Raised within 20 s of playback (the rule needs 1 % of the video's packets lost over 10 s).
    await expect.poll(async () => (await readSeen(page)).targets, { timeout: 20_000, interval: 500 }).toEqual({ video: 200, audio: 200 });
    expect(await page.evaluate(() => (window as unknown as { __jbt: { errors: string[] } }).__jbt.errors)).toEqual([]);
  });
});

import { AccessToken } from 'livekit-server-sdk';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserStack } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Only the avatar is listened to. A second participant joins the avatar's room on real LiveKit (its token minted
 * here, as anyone holding the LiveKit key could), publishes a camera and sends fake service events on the event
 * topic. The widget must neither end on its `idle_timeout`, nor show its transcript line, nor show its camera.
 */
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: WidgetProbe }).__liveai);

/** A LiveKit token for `identity` in the room of the page's viewer: what anyone holding the LiveKit key could mint. */
async function intruderToken(viewerToken: string, identity: string): Promise<string> {
  const grant = JSON.parse(Buffer.from(viewerToken.split('.')[1]!, 'base64url').toString()) as { video: { room: string } };
  const at = new AccessToken(inject('livekitApiKey'), inject('livekitApiSecret'), { identity, ttl: 600 });
  at.addGrant({ roomJoin: true, room: grant.video.room, canPublish: true, canSubscribe: true, canPublishData: true });
  return at.toJwt();
}

/** Inbound video streams of the page's peer connections that decoded frames, with their frame widths. */
const inboundVideo = () =>
  (async () => {
    const widths: number[] = [];
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: Record<string, unknown>) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video' && Number(s.framesDecoded ?? 0) > 0) widths.push(Number(s.frameWidth ?? 0));
      });
    }
    return widths.sort((a, b) => a - b);
  })();

describe('a second participant in the avatar’s room', () => {
  const env = useBrowserStack({ queueMs: 0 });

  it('its camera and its data messages are ignored: no fake idle_timeout, no transcript line, the avatar stays on the stage', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.firstFrameAt !== null, null, {
      timeout: 30_000,
    });
    const { room } = await probe(page);
    expect(room).not.toBeNull();
    const token = await intruderToken(room!.token, 'intruder-1');

    const intruder = await env.context.newPage();
    await intruder.goto(`${env.stack.baseUrl}/test/browser/pages/intruder.html`);
    await intruder.waitForFunction(() => '__intrude' in window);
    // The livekit-client the pages run: the lowest supported one in that run of the tier.
    const expected = process.env.LIVEAI_LIVEKIT_CLIENT_VERSION;
    if (expected)
      expect(await intruder.evaluate(() => (window as unknown as { __livekitVersion: string }).__livekitVersion)).toBe(expected);
    const identity = await intruder.evaluate(
      ([url, token, viewer]) =>
        (window as unknown as { __intrude: (u: string, t: string, v: string) => Promise<string> }).__intrude(url, token, viewer),
      [room!.url, token, room!.identity] as const,
    );
    expect(identity).toBe('intruder-1');
    // The intruder's camera reached the page (its room subscribes to every track): a 320 px stream beside the avatar's.
    await expect.poll(() => page.evaluate(inboundVideo), { timeout: 15_000 }).toEqual([320, 368]);
    // A chat round trip through the avatar after the intruder's messages, which the SFU forwarded to the page first.
    const chat = page.getByRole('textbox', { name: 'Message' });
    await chat.fill('Still there?');
    await chat.press('Enter');
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.heard.includes('Still there?'));

    const p = await probe(page);
    expect(p.events.map((e) => e.type)).not.toContain('idle_timeout');
    expect(p.heard.some((t) => t.includes('<img'))).toBe(false);
    expect(p.ended).toBeNull();
    expect(p.phases.at(-1)).toBe('active');
    expect(p.videoTracks).toBe(1);
    expect(await page.getByText(/onerror/).count()).toBe(0);
    const shown = await page.evaluate(() => {
      const v = document.querySelector('video')!;
      return { width: v.videoWidth, height: v.videoHeight, pwned: 'pwned' in window || '__pwned' in window };
    });
    expect(shown).toEqual({ width: 368, height: 560, pwned: false });

    await page.getByRole('button', { name: /^End/ }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.ended !== null);
    expect(pageErrors).toEqual([]);
    await intruder.close();
    await page.close();
  });
});

describe('a participant that joins the room before the avatar (during the service’s queue)', () => {
  // The avatar joins once the session leaves the queue: long enough for the intruder to join and send first.
  const env = useBrowserStack({ queueMs: 8000 });

  it('is not taken for the avatar: its forged transcript lines are not shown, its idle_timeout does not end the call', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/widget.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.room !== null, null, { timeout: 30_000 });
    const { room } = await probe(page);
    const token = await intruderToken(room!.token, 'intruder-early');

    const intruder = await env.context.newPage();
    await intruder.goto(`${env.stack.baseUrl}/test/browser/pages/intruder.html`);
    await intruder.waitForFunction(() => '__intrude' in window);
    const identity = await intruder.evaluate(
      ([url, t, viewer]) =>
        (window as unknown as { __intrude: (u: string, t: string, v: string) => Promise<string> }).__intrude(url, t, viewer),
      [room!.url, token, room!.identity] as const,
    );
    expect(identity).toBe('intruder-early');
    // Everything was sent while only the viewer was in the room: the avatar had not joined yet.
    const others = await intruder.evaluate(() => (window as unknown as { __others: string[] }).__others);
    expect(others).toEqual([room!.identity]);

    // The avatar joins once queued time is over (or the call ended: what the forged idle_timeout did before).
    await page.waitForFunction(
      () => {
        const p = (window as unknown as { __liveai: WidgetProbe }).__liveai;
        return p.firstFrameAt !== null || p.ended !== null;
      },
      null,
      { timeout: 60_000 },
    );
    const before = await probe(page);
    expect(before.ended).toBeNull();
    expect(before.events.map((e) => e.type)).not.toContain('idle_timeout');
    expect(await page.getByText(/forged line/).count()).toBe(0);
    // Then a chat round trip through the avatar.
    const chat = page.getByRole('textbox', { name: 'Message' });
    await chat.fill('Who is there?');
    await chat.press('Enter');
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.heard.includes('Who is there?'));

    const p = await probe(page);
    expect(p.events.map((e) => e.type)).not.toContain('idle_timeout');
    expect(p.events.filter((e) => e.type === 'agent_transcription' && /forged/.test(e.transcription))).toEqual([]);
    expect(p.heard.some((t) => t.includes('<img'))).toBe(false);
    expect(await page.getByText(/forged line/).count()).toBe(0);
    expect(p.ended).toBeNull();
    expect(p.phases).not.toContain('ended');
    expect(p.phases.at(-1)).toBe('active');
    expect(p.videoTracks).toBe(1); // never the intruder's camera, not even before the avatar came
    const shown = await page.evaluate(() => {
      const v = document.querySelector('video')!;
      return { width: v.videoWidth, height: v.videoHeight, pwned: '__pwned' in window };
    });
    expect(shown).toEqual({ width: 368, height: 560, pwned: false });

    await page.getByRole('button', { name: /^End/ }).click();
    await page.waitForFunction(() => (window as unknown as { __liveai: WidgetProbe }).__liveai.ended !== null);
    expect(pageErrors).toEqual([]);
    await intruder.close();
    await page.close();
  });
});

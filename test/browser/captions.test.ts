import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writeResult } from '../setup/results';
import { AGENT_STACK, needsAgentApp, useAgentRoom } from './agent-process';
import { inboundStatsScript, useBrowserStack } from './harness';
import type { CaptionsProbe as Probe } from './pages/captions';

/**
 * Issue 40.2, captions in step with the voice: a LiveKit Agents app (examples/livekit-agent/agent, the published
 * avatar plugin, unmodified) says a long line through the local avatar service in a real LiveKit room; the drop-in
 * widget attached to that room (360 px wide, in English and in Arabic) shows it as the avatar speaks it: the caption
 * is not complete before the avatar's playback has gone on (it grows word by word with the audio the page plays),
 * while screen readers get the whole line at once; Arabic words are never cut.
 */

const SHOTS = 'test-results/captions';
/** The timings each test measured, for a person to read: test-results/captions/timing.json (never printed). */
const timing: Record<string, unknown> = {};
afterAll(() => {
  if (Object.keys(timing).length) writeResult('captions/timing.json', timing);
});
const ROOM = 'captions-room';
const LINES = {
  en: 'This is a long answer that goes on, sentence after sentence, about the weather, the sea and the mountains, so there is time to watch its words appear as the avatar says them.',
  ar: 'مرحبًا بك! أنا الأفاتار، وسأحدّثك الآن عن الطقس والبحر والجبال، جملةً بعد جملة، لترى كلماتي تظهر وأنا أقولها.',
};

const env = useBrowserStack(AGENT_STACK);
const room = useAgentRoom(env);
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __captions: Probe }).__captions);
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Waits until the transcript's last agent line, whitespace folded, is `whole`. */
const lastAgentLineIs = (page: Page, whole: string) =>
  page.waitForFunction(
    (w) =>
      (window as unknown as { __captions: Probe }).__captions.lines
        .filter((l) => l.role === 'agent')
        .at(-1)
        ?.text.replace(/\s+/g, ' ')
        .trim() === w,
    whole,
    { timeout: 10_000 },
  );

/**
 * The caption's record against the avatar's audio in the page: from the first audible sample after `from` to the
 * last, when the caption first showed `whole` complete, and the partial captions before it.
 */
function timeline(p: Probe, from: number, whole: string) {
  const audible = p.audio.filter((a) => a.t >= from && a.level > 0.02);
  const [first, last] = [audible[0]?.t ?? Number.NaN, audible.at(-1)?.t ?? Number.NaN];
  const shown = p.captions.filter((c) => c.t >= from - 5000 && c.shown);
  const complete = shown.find((c) => norm(c.shown) === whole);
  const partial = shown.filter((c) => complete && c.t < complete.t && norm(c.shown) !== whole && whole.startsWith(norm(c.shown)));
  return { audible: audible.length, first, last, complete: complete?.t ?? Number.NaN, partial, shown };
}

describe('captions keep in step with the voice in a hosted room (issue 40.2)', () => {
  it("the service's own agent answers a chat: its line arrives whole, the caption shows it as the avatar says it", async () => {
    const page = await env.context.newPage();
    await page.setViewportSize({ width: 360, height: 760 });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/captions.html`);
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __captions: Probe }).__captions.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(0);
    const asked = Date.now();
    await page.evaluate(() =>
      (window as unknown as { __session: { sendChat(t: string): Promise<void> } }).__session.sendChat('Hello avatar, how are you?'),
    );
    // The service's line (the whole reply, in one agent_transcription event), as the store holds it.
    const handle = await page.waitForFunction(
      () => (window as unknown as { __captions: Probe }).__captions.lines.find((l) => l.role === 'agent')?.text,
      null,
      { timeout: 20_000 },
    );
    const whole = norm(String(await handle.jsonValue()));
    await page.waitForFunction(
      (w) => (window as unknown as { __captions: Probe }).__captions.captions.some((c) => c.shown.replace(/\s+/g, ' ').trim() === w),
      whole,
      { timeout: 60_000 },
    );
    const t = timeline(await probe(page), asked, whole);
    timing.hosted = {
      audioMsAfterChat: [t.first - asked, t.last - asked],
      partialCaptions: t.partial.length,
      completeMsAfterChat: t.complete - asked,
    };
    expect(t.audible).toBeGreaterThan(10);
    // Not complete before most of the reply was heard (the line arrived whole, before the voice), and shown word by
    // word before that.
    expect(t.complete).toBeGreaterThan(t.first + (t.last - t.first) / 2);
    expect(t.partial.filter((c) => c.t >= t.first).length).toBeGreaterThan(3);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe('captions keep in step with the voice (issue 40.2)', () => {
  needsAgentApp();
  it.each(['en', 'ar'] as const)('a long reply in %s: the caption grows with the playback, never ahead of it', async (lang) => {
    // One agent (and avatar session) per language: the page's end on leaving ends the session it attached to.
    const { agent, url } = await room.start(`${ROOM}-${lang}`);
    const page = await env.context.newPage();
    await page.setViewportSize({ width: 360, height: 760 });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(url('captions.html', `?lang=${lang}&mic=off`));
    await page.getByRole('button', { name: lang === 'ar' ? 'ابدأ المكالمة' : 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __captions: Probe }).__captions.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(0);

    const text = LINES[lang];
    const from = agent.reports.length;
    agent.send({ cmd: 'say', text });
    const started = await agent.next((r) => r.event === 'playback_started', { from });
    // Mid-reply: a caption that shows part of the line. What the visitor sees, at 360 px.
    await page.waitForFunction(
      (whole) => {
        const c = (window as unknown as { __captions: Probe }).__captions.captions.at(-1);
        return !!c && c.shown.length > whole.length * 0.3 && c.shown.length < whole.length * 0.7;
      },
      text,
      { timeout: 20_000 },
    );
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/speaking-${lang}.png` });
    await agent.next((r) => r.event === 'said', { from, timeoutMs: 60_000 });
    // The transcript holds the whole line, from its first word (the agent speaks once it has linked the visitor, so it
    // transcribes everything it says: see examples/livekit-agent/agent/agent.mjs), and the caption ends showing it.
    const whole = norm(text);
    await lastAgentLineIs(page, whole);
    await page.waitForFunction((w) => {
      const c = (window as unknown as { __captions: Probe }).__captions.captions.at(-1);
      return !!c && c.shown.replace(/\s+/g, ' ').trim() === w;
    }, whole);
    await page.screenshot({ path: `${SHOTS}/said-${lang}.png` });

    const p = await probe(page);
    // The avatar's audio as the page played it: from the first audible sample after playback started to the last.
    const audible = p.audio.filter((a) => a.t >= started.t && a.level > 0.02);
    expect(audible.length).toBeGreaterThan(10);
    const [first, last] = [audible[0]!.t, audible.at(-1)!.t];
    const shown = p.captions.filter((c) => c.t >= started.t - 5000 && c.shown);
    // The whole line showed only once most of the audio had played, never at once.
    const complete = shown.find((c) => norm(c.shown) === whole)!;
    expect(complete.t).toBeGreaterThan(first + (last - first) / 2);
    // Before that, the caption grew word by word: several partial captions while the audio played, each the start
    // of the line cut after a whole word.
    const partial = shown.filter((c) => c.t < complete.t && norm(c.shown) !== whole);
    expect(partial.filter((c) => c.t >= first).length).toBeGreaterThan(3);
    for (const c of partial) {
      expect(whole.startsWith(norm(c.shown))).toBe(true);
      const next = whole[norm(c.shown).length];
      expect(next === undefined || next === ' ').toBe(true);
    }
    // Screen readers get the line's text from a hidden copy, never less than what shows: LiveKit Agents streams its
    // transcription in chunks, so the copy grows by those chunks, not word by word with the voice.
    for (const c of shown) expect(norm(c.whole).startsWith(norm(c.shown))).toBe(true);
    timing[lang] = {
      audioMsAfterPlaybackStarted: [first - started.t, last - started.t],
      partialCaptions: partial.length,
      completeMsAfterPlaybackStarted: complete.t - started.t,
      screenReaderCopyChanges: new Set(shown.map((c) => c.whole)).size,
    };
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('a reply asked for before the visitor joined is said once the agent listens to the visitor: its transcript line is whole', async () => {
    // LiveKit Agents transcribes only for the visitor its session linked: the agent app waits for that link before it
    // speaks, so the visitor who joins after the reply was asked for still gets every word of it.
    const { agent, url } = await room.start(`${ROOM}-early`);
    const from = agent.reports.length;
    agent.send({ cmd: 'say', text: LINES.en });
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(url('captions.html', '?mic=off'));
    await page.getByRole('button', { name: 'Start call' }).click();
    await agent.next((r) => r.event === 'said', { from, timeoutMs: 60_000 });
    await lastAgentLineIs(page, norm(LINES.en));
    expect(agent.reports.find((r) => r.event === 'visitor')?.identity).toBe('user-1');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

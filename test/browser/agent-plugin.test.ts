import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AGENT_STACK, needsAgentApp, useAgentRoom, waitForSilence, openAgentAttach } from './agent-process';
import { API_KEY, inboundStatsScript, useBrowserStack } from './harness';
import type { AgentProbe as Probe } from './pages/agent-attach';
import type { MouthSample } from './pages/frames';

/**
 * Issue 13, the real agent ecosystem: a LiveKit Agents app (examples/livekit-agent/agent: @livekit/agents + the published
 * @livekit/agents-plugin-lemonslice, unmodified, with a local stand-in TTS) creates the avatar session on the local
 * service (started with provider labels, as the real service names its providers), the avatar joins the agent's
 * room on its behalf and speaks the agent's audio; a page on liveai-kit's hooks attaches to that room with its own
 * token and shows it.
 */

const SHOTS = 'test-results/agent-plugin';
const ROOM = 'agent-plugin-room';
const GREETING = 'Hello there! I am the avatar of this agent, running on a local LiveKit server.';
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __agent: Probe }).__agent);

/** Range of dark pixels in the mouth box and mean |Δ| per frame, over `s`. */
function mouthStats(s: MouthSample[]) {
  const dark = s.map((m) => m.dark);
  return {
    frames: s.length,
    darkRange: s.length ? Math.max(...dark) - Math.min(...dark) : 0,
    meanDiff: s.reduce((a, m) => a + m.diff, 0) / Math.max(1, s.length),
  };
}

const env = useBrowserStack(AGENT_STACK);
const room = useAgentRoom(env);

describe('LiveKit Agents + the published avatar plugin drive the local avatar; the hooks attach (issue 13)', () => {
  needsAgentApp();
  it('creates the session with the provider labels, lip-syncs the agent’s speech, reports playback, stops on an interruption, and the page shows it', async () => {
    const { agent, sessionId, url } = await room.start(ROOM);

    // The plugin's request was accepted in the service's labels: transport_type "livekit" with livekit_url/livekit_token.
    const list = (await (
      await fetch(`${env.stack.emulatorUrl}/liveai/sessions?limit=100`, { headers: { 'X-API-Key': API_KEY } })
    ).json()) as {
      sessions: { session_id: string; provider: string }[];
    };
    expect(list.sessions.find((s) => s.session_id === sessionId)?.provider).toBe('LIVEKIT');
    expect(env.stack.emulator.state.session(sessionId)).toMatchObject({
      transport_type: 'rtc-a',
      session_status: 'ACTIVE',
      media_joined: true,
      demeanour: { idlePrompt: 'calm, attentive' },
    });

    // The app's server hands the browser an attach session (`room.start` made it): a client token for the proxy
    // and its own room token.
    const { page, pageErrors } = await openAgentAttach(env.context, url('agent-attach.html'));
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(25);
    expect((await page.evaluate(inboundStatsScript)).frameWidth).toBe(368);
    const origin = await page.evaluate(() => performance.timeOrigin);
    const epoch = (m: MouthSample) => origin + m.t;

    // Quiet first: 50 frames while the agent says nothing.
    const quietFrom = Date.now();
    await page.waitForFunction(
      (from) => (window as unknown as { __agent: Probe }).__agent.mouth.filter((m) => performance.timeOrigin + m.t > from).length >= 50,
      quietFrom,
      { timeout: 20_000 },
    );

    // A turn: the agent says the greeting; the avatar reports playback started and finished (not interrupted).
    const turn = agent.reports.length;
    agent.send({ cmd: 'say', text: GREETING });
    const started = await agent.next((r) => r.event === 'playback_started', { from: turn });
    const finished = await agent.next((r) => r.event === 'playback_finished', { from: turn, timeoutMs: 30_000 });
    expect(finished.interrupted).toBe(false);
    expect(Number(finished.position)).toBeGreaterThan(1);
    await agent.next((r) => r.event === 'said' && r.interrupted === false, { from: turn });
    const afterFrom = finished.t + 400;
    await page.waitForFunction(
      (from) => (window as unknown as { __agent: Probe }).__agent.mouth.filter((m) => performance.timeOrigin + m.t > from).length >= 50,
      afterFrom,
      { timeout: 20_000 },
    );
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/after-turn.png`, fullPage: true });

    let p = await probe(page);
    const quiet = mouthStats(p.mouth.filter((m) => epoch(m) > quietFrom && epoch(m) < started.t));
    const speaking = mouthStats(p.mouth.filter((m) => epoch(m) > started.t + 300 && epoch(m) < finished.t));
    const after = mouthStats(p.mouth.filter((m) => epoch(m) > afterFrom).slice(0, 50));
    const heard = Math.max(0, ...p.audio.filter((a) => a.t > started.t && a.t < finished.t + 300).map((a) => a.level));
    const report = JSON.stringify({ quiet, speaking, after, heard });
    // The mouth moves with the agent's syllables while it speaks, and is still between turns.
    expect(speaking.frames, report).toBeGreaterThan(15);
    expect(speaking.darkRange, report).toBeGreaterThan(300);
    expect(speaking.meanDiff, report).toBeGreaterThan(3 * Math.max(quiet.meanDiff, after.meanDiff, 0.25));
    for (const still of [quiet, after]) {
      expect(still.frames, report).toBeGreaterThanOrEqual(40);
      expect(still.darkRange, report).toBeLessThan(150);
    }
    expect(heard, report).toBeGreaterThan(0.05);

    // An interruption: a long turn, interrupted once the browser hears it; the avatar's audio goes silent.
    const long = agent.reports.length;
    agent.send({
      cmd: 'say',
      text: 'This is a much longer answer that goes on and on, sentence after sentence, so that there is plenty of time to interrupt it while it plays.',
    });
    const longStarted = await agent.next((r) => r.event === 'playback_started', { from: long });
    await page.waitForFunction(
      (from) => (window as unknown as { __agent: Probe }).__agent.audio.some((a) => a.t > from && a.level > 0.05),
      longStarted.t,
      { timeout: 15_000 },
    );
    agent.send({ cmd: 'interrupt' });
    const cut = await agent.next((r) => r.event === 'playback_finished', { from: long });
    expect(cut.interrupted).toBe(true);
    await agent.next((r) => r.event === 'said' && r.interrupted === true, { from: long });
    // silence: 10 polls in a row (0.5 s) with no audio level, although the sentence had seconds left
    await waitForSilence(page, cut.t);

    // Mic on: the agent hears the user's voice (Chromium's fake microphone); Mic off mutes it at the agent.
    const mic = agent.reports.length;
    await page.getByRole('button', { name: 'Mic on' }).click();
    await agent.next((r) => r.event === 'user_audio' && r.from === 'user-1' && Number(r.rms) > 100, { from: mic, timeoutMs: 20_000 });
    const off = agent.reports.length;
    await page.getByRole('button', { name: 'Mic off' }).click();
    await agent.next((r) => r.event === 'user_mic' && r.from === 'user-1' && r.muted === true, { from: off });

    // The transcript shows all the agent's words, once (the service's events and the agent's lk.transcription merged).
    await page.waitForFunction(
      (text) => (window as unknown as { __agent: Probe }).__agent.transcript.some((l) => l.role === 'agent' && l.text.includes(text)),
      'local LiveKit server',
      { timeout: 15_000 },
    );
    p = await probe(page);
    const said = p.transcript
      .filter((l) => l.role === 'agent')
      .map((l) => l.text)
      .join(' ');
    expect(said.replace(/\s+/g, ' ')).toContain(GREETING);
    expect(p.transcript.filter((l) => l.role === 'agent' && l.text.includes('the avatar of this agent'))).toHaveLength(1);
    await page.screenshot({ path: `${SHOTS}/end.png`, fullPage: true });
    expect(p.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TestContext } from 'vitest';
import { AGENT_STACK, needsAgentApp, useAgentRoom, type AgentProcess } from './agent-process';
import { MEDIA_ENGINES, type TestPage } from './driver';
import { useEngineStack } from './harness';
import type { CaptionsProbe as Probe } from './pages/captions';
import type { ByteStreamRecord } from './pages/preconnect-probe';

/**
 * Issue 40.1, speak while the avatar is still coming, in Chromium and in Firefox: the drop-in widget attached to a
 * LiveKit Agents room (examples/livekit-agent/agent, the published avatar plugin) switches the microphone on with the
 * Start click and joins with livekit-client's pre-connect audio buffer (on by default for attached sessions): what the
 * visitor says while joining (each browser's fake microphone plays a tone) is recorded and sent on the byte stream
 * topic `lk.agent.pre-connect-audio-buffer`. The agent app reports every such stream it receives.
 *
 * livekit-client 2.23 sends its recording to the participant of kind agent that became active last, and the avatar
 * plugins give the avatar worker kind agent too: with the avatar in the room before the visitor it goes to the agent
 * or to the avatar in the order the server lists them (before the session relayed it, 3 of 11 joins reached the
 * agent). Whichever livekit-client chose, the agent must receive exactly one recording; when livekit-client chose
 * the avatar, the session's own recording, with the audio of the join in it. Each
 * join with the avatar present runs three times (a fresh room each), so a recording lost to the avatar cannot pass
 * by the luck of the server's order. The attach flow needs the session the agent's avatar plugin created, so the
 * agent is always in the room first; "the avatar joins after the visitor" holds the avatar in the service's queue.
 */
const TOPIC = 'lk.agent.pre-connect-audio-buffer';
const RUNS_WITH_AVATAR = 3;

/** Starts the call on `page` and checks what the agent got: exactly one pre-connect recording, with audio. */
async function oneRecordingReachesTheAgent(
  ctx: TestContext,
  page: TestPage,
  agent: AgentProcess,
  from: number,
  label: string,
): Promise<void> {
  await page.byRole('button', 'Start call').click();

  const buffer = await agent.next((r) => r.event === 'preconnect_buffer', { from, timeoutMs: 30_000 });
  await page.waitForFunction(() => (window as unknown as { __captions: Probe }).__captions.phases.includes('active'), 60_000);
  // The live microphone follows: the agent hears the visitor.
  await agent.next((r) => r.event === 'user_audio' && r.from === 'user-1', { from, timeoutMs: 30_000 });

  const received = agent.reports.slice(from).filter((r) => r.event === 'preconnect_buffer');
  const sent = (await page.evaluate(() => (window as unknown as { __byteStreams: ByteStreamRecord[] }).__byteStreams)).filter(
    (s) => s.topic === TOPIC,
  );
  const toAgent = sent.filter((s) => s.to.includes('agent'));
  await ctx.annotate(
    `${label}: livekit-client sent its recording to ${sent[0]?.to.join(',') ?? 'nobody'}; the agent received ` +
      `${received.map((r) => `${String(r.bytes)} bytes`).join(' and ')}`,
    'notice',
  );
  // While the avatar was coming the widget said it listens.
  expect(await page.evaluate(() => (window as unknown as { __waitingLines: string[] }).__waitingLines)).toEqual([
    'Listening: you can start talking while the avatar joins.',
  ]);
  expect(received).toHaveLength(1);
  expect(toAgent).toHaveLength(1);
  expect(buffer.from).toBe('user-1');
  // livekit-client addressed the avatar: the agent got the session's own recording, which holds the whole join. (Its
  // own recording, when it addressed the agent, loses its last chunk: a join this fast can leave it empty.)
  if (sent.length > toAgent.length) expect(buffer.bytes).toBeGreaterThan(0);
  expect(String(buffer.mimeType)).toMatch(/^audio\/webm|^video\/mp4/);
  expect(String(buffer.trackId)).toMatch(/^TR_/);
  expect(page.pageErrors).toEqual([]);
}

describe("the visitor's pre-connect audio (issue 40.1)", () => {
  needsAgentApp();
  describe.each(MEDIA_ENGINES)('in %s', (engine) => {
    describe('the avatar already in the room', () => {
      const env = useEngineStack(engine, AGENT_STACK);
      const room = useAgentRoom(env);
      it.for(Array.from({ length: RUNS_WITH_AVATAR }, (_, i) => i + 1))(
        'join %i: the agent receives exactly one recording',
        async (run, ctx) => {
          const { agent, url } = await room.start(`preconnect-${engine}-${run}`);
          const page = await env.browser.newPage();
          await page.goto(url('preconnect.html'));
          await oneRecordingReachesTheAgent(ctx, page, agent, agent.reports.length, `${engine}, join ${run}`);
          await page.close();
        },
      );
    });

    describe('the avatar joins after the visitor', () => {
      // The avatar waits 15 s in the service's queue: the visitor is in the room long before (the check holds if not).
      const env = useEngineStack(engine, { ...AGENT_STACK, queueMs: 15_000 });
      const room = useAgentRoom(env);
      it('the agent receives exactly one recording', async (ctx) => {
        const { agent, url } = await room.start(`preconnect-${engine}-cold`, { until: 'session' });
        const page = await env.browser.newPage();
        await page.goto(url('preconnect.html'));
        await oneRecordingReachesTheAgent(ctx, page, agent, agent.reports.length, `${engine}, avatar after the visitor`);
        // The avatar did join after the visitor's recording was sent.
        const sentAt = agent.reports.find((r) => r.event === 'preconnect_buffer')!.t;
        const ready = await agent.next((r) => r.event === 'ready', { timeoutMs: 60_000 });
        expect(ready.t).toBeGreaterThan(sentAt);
        await page.close();
      });
    });
  });
});

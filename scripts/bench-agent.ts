// Bench (not a test): a LiveKit Agents app with the published avatar plugin drives the local avatar, a page on
// liveai-kit's hooks attaches (the same stack as test/browser/agent-plugin.test.ts). Prints, median of N turns:
//  - first audio → moving mouth: from the agent's stand-in TTS producing its first frame of a turn to the first
//    frame decoded in the browser whose mouth box is clearly open (dark pixels > quiet maximum + 150);
//  - interruption → silence: from the agent calling session.interrupt() to the avatar audio in the browser falling
//    under RMS 0.003 (WebAudio analyser, every 10 ms) for good (300 ms).
// Run inside the private network namespace, after `npm ci --prefix examples/livekit-agent/agent`:
//   scripts/netns-run.sh npx tsx scripts/bench-agent.ts [turns=5]
import { AccessToken } from 'livekit-server-sdk';
import { chromium } from 'playwright-core';
// @ts-expect-error -- plain ESM script without types
import { LIVEKIT_KEYS, installLivekit, startLivekit } from './livekit.mjs';
import { createEmulator } from '../src/emulator/index';
import { issueClientToken } from '../src/server/index';
import { AgentProcess, AGENT_APP_MISSING, agentAppInstalled } from '../test/browser/agent-process';
import { CHROMIUM_ARGS } from '../test/browser/chromium-args';
import { startPageServer } from '../test/browser/page-server';
import type { AgentProbe as Probe } from '../test/browser/pages/agent-attach';

const TURNS = Number(process.argv[2] ?? 5);
const SECRET = 'bench-agent-session-secret-0123456789abcdef';
const ROOM = 'bench-agent-room';
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  if (process.env.LIVEAI_IN_NETNS !== '1') throw new Error('run inside the namespace: scripts/netns-run.sh npx tsx scripts/bench-agent.ts');
  if (!agentAppInstalled()) throw new Error(AGENT_APP_MISSING);
  installLivekit({ quiet: true });
  const lk = await startLivekit();
  const livekit = { url: lk.url as string, apiKey: LIVEKIT_KEYS.apiKey as string, apiSecret: LIVEKIT_KEYS.apiSecret as string };
  const emulator = await createEmulator({ port: 0, media: true, queueMs: 200, livekit, providerLabels: 'rtc-a=livekit' });
  const pages = await startPageServer({
    upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice' },
    sessionSecret: SECRET,
    livekit,
    providerLabels: 'rtc-a=livekit',
  });
  const base = pages.baseUrl;
  const agent = AgentProcess.start({
    LIVEKIT_URL: livekit.url,
    LIVEKIT_API_KEY: livekit.apiKey,
    LIVEKIT_API_SECRET: livekit.apiSecret,
    LEMONSLICE_API_URL: `${emulator.url}/liveai/sessions`,
    LEMONSLICE_API_KEY: 'dev-key-alice',
    ROOM,
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const ready = await agent.next((r) => r.event === 'ready', { timeoutMs: 60_000 });
    const sessionId = String(ready.session_id);
    const viewer = new AccessToken(livekit.apiKey, livekit.apiSecret, { identity: 'bench-user', ttl: '10m' });
    viewer.addGrant({ room: ROOM, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
    const attach = {
      ...(await issueClientToken({ sessionSecret: SECRET }, sessionId)),
      transport: 'rtc-a',
      room_url: livekit.url,
      token: await viewer.toJwt(),
    };
    const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
    await context.addInitScript(() => {
      const w = window as unknown as { __pcs: RTCPeerConnection[] };
      w.__pcs = [];
    });
    const page = await context.newPage();
    await page.goto(`${base}/test/browser/pages/agent-attach.html#${encodeURIComponent(JSON.stringify(attach))}`);
    await page.waitForFunction(() => (window as unknown as { __agent: Probe }).__agent.mouth.length > 50, null, { timeout: 60_000 });
    const origin = await page.evaluate(() => performance.timeOrigin);
    const probe = () => page.evaluate(() => (window as unknown as { __agent: Probe }).__agent);

    const toMouth: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const quietFrom = Date.now();
      await page.waitForFunction(
        (from) => (window as unknown as { __agent: Probe }).__agent.mouth.filter((m) => performance.timeOrigin + m.t > from).length >= 25,
        quietFrom,
      );
      const from = agent.reports.length;
      agent.send({ cmd: 'say', text: `Turn number ${i + 1}: hello there, how are you today?` });
      const first = await agent.next((r) => r.event === 'tts_first_frame', { from });
      await agent.next((r) => r.event === 'said', { from, timeoutMs: 30_000 });
      const p = await probe();
      const quietMax = Math.max(...p.mouth.filter((m) => origin + m.t > quietFrom && origin + m.t < first.t).map((m) => m.dark));
      const open = p.mouth.find((m) => origin + m.t > first.t && m.dark > quietMax + 150);
      if (open) toMouth.push(origin + open.t - first.t);
    }

    const toSilence: number[] = [];
    const toFinished: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const from = agent.reports.length;
      agent.send({
        cmd: 'say',
        text: 'This answer is long on purpose, one clause after another, so that it is still playing when it is interrupted.',
      });
      const started = await agent.next((r) => r.event === 'playback_started', { from });
      await page.waitForFunction(
        (t) => (window as unknown as { __agent: Probe }).__agent.rms.some((x) => x.t > t && x.rms > 0.02),
        started.t,
        { timeout: 15_000 },
      );
      agent.send({ cmd: 'interrupt' });
      const cut = await agent.next((r) => r.event === 'interrupting', { from });
      const fin = await agent.next((r) => r.event === 'playback_finished', { from });
      toFinished.push(fin.t - cut.t);
      await agent.next((r) => r.event === 'said', { from });
      await page.waitForFunction((t) => (window as unknown as { __agent: Probe }).__agent.rms.some((x) => x.t > t + 1000), cut.t);
      const rms = (await probe()).rms.filter((x) => x.t > cut.t - 50);
      // silent from the first sample after which every sample of the next 300 ms is quiet
      const at = rms.find(
        (x, k) =>
          x.t >= cut.t &&
          x.rms < 0.003 &&
          rms
            .slice(k)
            .filter((y) => y.t < x.t + 300)
            .every((y) => y.rms < 0.003),
      );
      if (at) toSilence.push(at.t - cut.t);
    }

    const fmt = (xs: number[]) => `median ${Math.round(median(xs))} ms  (n=${xs.length}: ${xs.map((x) => Math.round(x)).join(', ')})`;
    console.log(`agent first audio frame -> first moving-mouth frame in the browser: ${fmt(toMouth)}`);
    console.log(`interruption (session.interrupt) -> avatar audio silent in the browser:   ${fmt(toSilence)}`);
    console.log(`  of which: interrupt -> the avatar's lk.playback_finished back at the agent: ${fmt(toFinished)}`);
  } finally {
    await agent.stop();
    await browser.close();
    await pages.close();
    await emulator.close();
    await lk.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

import { AudioStream, Room, RoomEvent, TrackKind, type RemoteTrack, type RpcInvocationData } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM script without types
import { LIVEKIT_KEYS, LIVEKIT_URL, ensureLivekit } from '../../scripts/livekit.mjs';
import request from 'supertest';
import { proxyApp, proxyOptions } from '../server/helpers';
import { ALICE, Harness, waitFor } from './helpers';

/**
 * The avatar side of LiveKit's avatar data-stream protocol on an rtc-a session, driven by an "agent" written
 * directly against @livekit/rtc-node (the browser tier drives it with the real LiveKit Agents plugin).
 * Needs the private network namespace: scripts/netns-run.sh npx vitest run test/emulator/agent-audio.test.ts
 */
const inNetns = process.env.LIVEAI_IN_NETNS === '1';
if (!inNetns && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error('agent-audio tests need the network namespace (CI=true)');

const ROOM = 'agent-audio-room';
const AGENT = 'agent-1';
const AVATAR = 'lemonslice-avatar-agent';

async function mint(identity: string, attributes?: Record<string, string>): Promise<string> {
  const t = new AccessToken(LIVEKIT_KEYS.apiKey, LIVEKIT_KEYS.apiSecret, { identity, ttl: '10m' });
  t.addGrant({ room: ROOM, roomJoin: true });
  if (attributes) t.attributes = attributes;
  return t.toJwt();
}

/** 16 kHz PCM16 mono: `ms` of a 220 Hz tone at half scale. */
function tone(ms: number): Int16Array {
  const n = (16000 * ms) / 1000;
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(16000 * Math.sin((2 * Math.PI * 220 * i) / 16000));
  return out;
}

describe.skipIf(!inNetns)('avatar data-stream protocol (rtc-a)', () => {
  let lk: { stop(): Promise<void> } | null = null;
  let h: Harness;
  const agent = new Room();
  const viewer = new Room();
  const rpcs: Array<{ method: string; payload: string; from: string }> = [];
  /** RMS of each 10 ms frame the viewer hears from the avatar, in arrival order. */
  const heard: number[] = [];

  const speak = async (pcm: Int16Array, chunkMs = 20) => {
    const w = await agent.localParticipant!.streamBytes({
      topic: 'lk.audio_stream',
      destinationIdentities: [AVATAR],
      attributes: { sample_rate: '16000', num_channels: '1' },
    });
    const step = (16000 * chunkMs) / 1000;
    for (let i = 0; i < pcm.length; i += step) await w.write(new Uint8Array(pcm.slice(i, i + step).buffer));
    return w;
  };
  const rpcCount = (method: string) => rpcs.filter((r) => r.method === method).length;
  /** The emulator's warnings (e.g. a byte stream it ignored). */
  const warnings: string[] = [];
  const noop = () => undefined;
  const logger = { debug: noop, info: noop, error: noop, warn: (o: object | string, m?: string) => void warnings.push(m ?? String(o)) };

  beforeAll(async () => {
    lk = await ensureLivekit();
    h = await Harness.start({
      media: true,
      queueMs: 20,
      providerLabels: 'rtc-a=livekit',
      livekit: { url: LIVEKIT_URL, apiKey: LIVEKIT_KEYS.apiKey, apiSecret: LIVEKIT_KEYS.apiSecret },
      logger,
    });
    await agent.connect(LIVEKIT_URL, await mint(AGENT), { autoSubscribe: false, dynacast: false });
    for (const method of ['lk.playback_started', 'lk.playback_finished']) {
      agent.localParticipant!.registerRpcMethod(method, async (d: RpcInvocationData) => {
        rpcs.push({ method, payload: d.payload, from: d.callerIdentity });
        return 'ok';
      });
    }
    viewer.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
      if (track.kind !== TrackKind.KIND_AUDIO) return;
      void (async () => {
        const reader = new AudioStream(track, { sampleRate: 48000, numChannels: 1 }).getReader();
        for (;;) {
          const { value: f, done } = await reader.read();
          if (done) return;
          let s = 0;
          for (const x of f.data) s += x * x;
          heard.push(Math.sqrt(s / f.data.length));
        }
      })();
    });
    await viewer.connect(LIVEKIT_URL, await mint('user-1'), { autoSubscribe: true, dynacast: false });
  }, 120_000);
  afterAll(async () => {
    await agent.disconnect();
    await viewer.disconnect();
    await h?.close();
    await lk?.stop();
  });

  it('joins on the agent’s behalf, plays the streamed speech, reports playback started and finished, and cuts it on lk.clear_buffer', async () => {
    const token = await mint(AVATAR, { 'lk.publish_on_behalf': AGENT });
    const id = await h.session({
      agent_id: 'agent-demo',
      transport_type: 'livekit',
      properties: { livekit_url: LIVEKIT_URL, livekit_token: token },
    });
    await h.status(id, 'ACTIVE', 30_000);
    const avatar = await waitFor(
      () => [...agent.remoteParticipants.values()].find((p) => p.identity === AVATAR && p.trackPublications.size >= 2),
      'the avatar’s tracks',
      20_000,
    );
    expect(avatar.attributes['lk.publish_on_behalf']).toBe(AGENT);
    await waitFor(() => heard.length > 10, 'the avatar’s audio at the viewer', 20_000);

    // one turn: 600 ms of speech, then the stream closes (end of turn)
    const from = heard.length;
    await (await speak(tone(600))).close();
    await waitFor(() => rpcCount('lk.playback_started') === 1, 'lk.playback_started');
    await waitFor(() => heard.slice(from).some((r) => r > 3000), 'the speech at the viewer');
    await waitFor(() => rpcCount('lk.playback_finished') === 1, 'lk.playback_finished', 10_000);
    const done = JSON.parse(rpcs.find((r) => r.method === 'lk.playback_finished')!.payload);
    expect(done.interrupted).toBe(false);
    expect(done.playback_position).toBeCloseTo(0.6, 1);
    expect(rpcs.every((r) => r.from === AVATAR)).toBe(true);

    // an interrupted turn: 5 s of speech, cleared once it is audible; the stream is still open
    const before = heard.length;
    const w = await speak(tone(5000));
    await waitFor(() => heard.slice(before).some((r) => r > 3000), 'the long speech at the viewer');
    expect(await agent.localParticipant!.performRpc({ destinationIdentity: AVATAR, method: 'lk.clear_buffer', payload: '' })).toBe('ok');
    const cutAt = heard.length;
    await waitFor(() => rpcCount('lk.playback_finished') === 2, 'lk.playback_finished after the interruption');
    const cut = JSON.parse(rpcs.filter((r) => r.method === 'lk.playback_finished')[1]!.payload);
    expect(cut.interrupted).toBe(true);
    expect(cut.playback_position).toBeLessThan(5);
    // the viewer hears silence from then on (50 consecutive quiet frames = 0.5 s), although the stream goes on
    await waitFor(
      () => {
        const tail = heard.slice(cutAt);
        let quiet = 0;
        for (const r of tail) quiet = r < 50 ? quiet + 1 : 0;
        return quiet >= 50;
      },
      'silence after lk.clear_buffer',
      10_000,
    );
    await w.close();
    // only the agent the avatar speaks for may steer it
    expect(await viewer.localParticipant!.performRpc({ destinationIdentity: AVATAR, method: 'lk.clear_buffer', payload: '' })).toBe(
      'reject',
    );
    const list = await h.get('/liveai/sessions', ALICE);
    expect(list.body.sessions.find((s: { session_id: string }) => s.session_id === id).provider).toBe('LIVEKIT');
  });

  it('a session made by the proxy speaks for its agent only: a viewer’s audio and lk.clear_buffer are ignored (issue 24 item 6)', async () => {
    // Attack (before): the proxy's avatar token named no agent, so the viewer's byte stream was lip-synced and its
    // lk.clear_buffer answered 'ok'. Now the token names an agent nobody holds a token for.
    const app = proxyApp(
      proxyOptions(h.url, {
        providerLabels: 'rtc-a=livekit',
        livekit: { url: LIVEKIT_URL, apiKey: LIVEKIT_KEYS.apiKey, apiSecret: LIVEKIT_KEYS.apiSecret },
      }),
    );
    const created = await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' });
    expect(created.status).toBe(201);
    const intruder = new Room();
    const calls: string[] = [];
    try {
      await intruder.connect(LIVEKIT_URL, created.body.token as string, { autoSubscribe: false, dynacast: false });
      for (const method of ['lk.playback_started', 'lk.playback_finished']) {
        intruder.localParticipant!.registerRpcMethod(method, async () => {
          calls.push(method);
          return 'ok';
        });
      }
      const avatar = await waitFor(
        () =>
          [...intruder.remoteParticipants.values()].find((p) => p.identity.startsWith('liveai-avatar-') && p.trackPublications.size >= 2),
        'the avatar in the proxy’s room',
        30_000,
      );
      expect(avatar.attributes['lk.publish_on_behalf']).toMatch(/^liveai-agent-/);
      const me = intruder.localParticipant!.identity;
      const w = await intruder.localParticipant!.streamBytes({
        topic: 'lk.audio_stream',
        destinationIdentities: [avatar.identity],
        attributes: { sample_rate: '16000', num_channels: '1' },
      });
      const pcm = tone(400);
      for (let i = 0; i < pcm.length; i += 320) await w.write(new Uint8Array(pcm.slice(i, i + 320).buffer));
      await w.close();
      await waitFor(() => warnings.some((m) => m.includes(`ignored audio from ${me}`)), 'the avatar ignoring the viewer’s audio', 10_000);
      expect(
        await intruder.localParticipant!.performRpc({ destinationIdentity: avatar.identity, method: 'lk.clear_buffer', payload: '' }),
      ).toBe('reject');
      expect(calls).toEqual([]);
    } finally {
      await intruder.disconnect();
    }
  });
});

import {
  AudioStream,
  Room,
  RoomEvent,
  TrackKind,
  VideoBufferType,
  VideoStream,
  type RemoteParticipant,
  type RemoteTrack,
  type VideoFrame,
} from '@livekit/rtc-node';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLiveAiError } from '../../src/core/errors';
import { joinAvatar, type AvatarMedia } from '../../src/emulator/media/index';
// @ts-expect-error -- plain ESM script without types
import { startLivekit } from '../../scripts/livekit.mjs';

/**
 * The emulator's media avatar in a real LiveKit room: a second rtc-node participant (the viewer)
 * subscribes and checks what a user would see and hear. Runs in the network namespace (global setup).
 */
const url = inject('livekitUrl');
const apiKey = inject('livekitApiKey');
const apiSecret = inject('livekitApiSecret');
const W = 368;
const H = 560;
const TOPIC = 'liveai';

async function token(room: string, identity: string): Promise<string> {
  const t = new AccessToken(apiKey, apiSecret, { identity, ttl: '10m' });
  t.addGrant({ room, roomJoin: true, canPublish: true, canSubscribe: true, canPublishData: true });
  return t.toJwt();
}

/** A light face (nothing dark around the mouth) on a background of colour `bg`. */
async function face(bg: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${bg}"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/>
    <circle cx="118" cy="213" r="14" fill="#fff"/><circle cx="250" cy="213" r="14" fill="#fff"/>
    <circle cx="118" cy="213" r="7" fill="#222"/><circle cx="250" cy="213" r="7" fill="#222"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** Polls `fn` until it returns a truthy value or `ms` pass; the value is returned. */
async function until<T>(fn: () => T | Promise<T>, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The viewer: counts decoded video frames, keeps the latest one, sums received audio, collects data messages. */
class Viewer {
  readonly room = new Room();
  frames = 0;
  latest: VideoFrame | null = null;
  audioSamples = 0;
  audioPeak = 0;
  readonly messages: Array<{ topic: string | undefined; text: string; from: string | undefined }> = [];
  readonly left: string[] = [];

  constructor(readonly identity: string) {
    this.room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => void this.consume(track));
    this.room.on(RoomEvent.DataReceived, (payload: Uint8Array, p?: RemoteParticipant, _k?: unknown, topic?: string) =>
      this.messages.push({ topic, text: new TextDecoder().decode(payload), from: p?.identity }),
    );
    this.room.on(RoomEvent.ParticipantDisconnected, (p: RemoteParticipant) => this.left.push(p.identity));
  }

  private async consume(track: RemoteTrack): Promise<void> {
    if (track.kind === TrackKind.KIND_VIDEO) {
      const reader = new VideoStream(track).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        this.frames++;
        this.latest = r.value.frame;
      }
    } else {
      const reader = new AudioStream(track, 48_000, 1).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        this.audioSamples += r.value.samplesPerChannel;
        for (const v of r.value.data) if (Math.abs(v) > this.audioPeak) this.audioPeak = Math.abs(v);
      }
    }
  }

  /** The latest decoded frame as RGBA. */
  rgba(): Uint8Array {
    if (!this.latest) throw new Error('no frame yet');
    return this.latest.convert(VideoBufferType.RGBA).data;
  }
}

/** Dark pixels (luma < 90) in a generous box around the mouth (63 % height, centre) of an RGBA frame. */
function darkAroundMouth(rgba: Uint8Array): number {
  let n = 0;
  for (let y = Math.round(H * 0.55); y < Math.round(H * 0.72); y++)
    for (let x = Math.round(W * 0.33); x < Math.round(W * 0.67); x++) {
      const i = (y * W + x) * 4;
      if (0.299 * (rgba[i] as number) + 0.587 * (rgba[i + 1] as number) + 0.114 * (rgba[i + 2] as number) < 90) n++;
    }
  return n;
}

/** Mean RGB of the top-left 20×20 corner (background only). */
function corner(rgba: Uint8Array): number[] {
  const sum = [0, 0, 0];
  for (let y = 2; y < 22; y++) for (let x = 2; x < 22; x++) for (let c = 0; c < 3; c++) sum[c]! += rgba[(y * W + x) * 4 + c] as number;
  return sum.map((s) => s / 400);
}

/** Largest dark-mouth count over frames sampled for `ms`. */
async function maxMouth(viewer: Viewer, ms: number): Promise<number> {
  let best = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    best = Math.max(best, darkAroundMouth(viewer.rgba()));
    await new Promise((r) => setTimeout(r, 30));
  }
  return best;
}

describe('emulator media avatar in a LiveKit room', () => {
  const room = `media-${Date.now()}`;
  const avatarIdentity = 'liveai-avatar-media-test';
  const viewer = new Viewer('viewer-1');
  const appMessages: Array<{ message: unknown; from: string }> = [];
  const joined: string[] = [];
  let avatar: AvatarMedia;

  beforeAll(async () => {
    avatar = await joinAvatar({
      livekitUrl: url,
      token: await token(room, avatarIdentity),
      image: await face('#9ec5e8'),
      eventTopic: TOPIC,
      onAppMessage: (message, from) => appMessages.push({ message, from }),
      onParticipantJoined: (identity) => joined.push(identity),
    });
    await viewer.room.connect(url, await token(room, viewer.identity), { autoSubscribe: true, dynacast: false });
  });

  afterAll(async () => {
    await avatar?.close();
    await viewer.room.disconnect();
  });

  it('joins with its identity and reports the viewer joining', async () => {
    expect(avatar.identity).toBe(avatarIdentity);
    await until(() => joined.includes(viewer.identity), 'onParticipantJoined');
  });

  it('publishes 368×560 video, frames flowing to a viewer (its rate is measured by the bench, not here)', async () => {
    await until(() => viewer.frames > 10, 'first video frames');
    expect([viewer.latest?.width, viewer.latest?.height]).toEqual([W, H]);
    const seen = viewer.frames;
    await until(() => viewer.frames > seen + 25, 'more frames arriving');
    expect(avatar.stats().framesSent).toBeGreaterThan(viewer.frames - 5);
  });

  it('publishes a continuous audio track (silence while quiet)', async () => {
    const before = await until(() => viewer.audioSamples, 'audio samples');
    await until(() => viewer.audioSamples > before + 48_000, 'a second more of audio');
  });

  it('delivers events as JSON data messages on the event topic, to everyone or to given identities', async () => {
    await avatar.publishEvent({ type: 'bot_ready' });
    await avatar.publishEvent({ type: 'agent_transcription', transcription: 'hi there' }, [viewer.identity]);
    await until(() => viewer.messages.length >= 2, 'two data messages');
    expect(viewer.messages.map((m) => [m.topic, JSON.parse(m.text)])).toEqual([
      [TOPIC, { type: 'bot_ready' }],
      [TOPIC, { type: 'agent_transcription', transcription: 'hi there' }],
    ]);
    expect(viewer.messages[0]?.from).toBe(avatarIdentity);
  });

  it('passes app messages on its topic to onAppMessage and ignores malformed or other-topic ones', async () => {
    const lp = viewer.room.localParticipant!;
    const send = (text: string, topic = TOPIC) => lp.publishData(new TextEncoder().encode(text), { reliable: true, topic });
    await send('{not json');
    await send(JSON.stringify({ event: 'chat-msg', message: 'wrong topic', name: 'x' }), 'other');
    await send(JSON.stringify({ event: 'chat-msg', message: 'Hello avatar', name: 'Ann' }));
    await until(() => appMessages.length >= 1, 'onAppMessage');
    await new Promise((r) => setTimeout(r, 300)); // nothing else may trickle in after the valid one
    expect(appMessages).toEqual([{ message: { event: 'chat-msg', message: 'Hello avatar', name: 'Ann' }, from: viewer.identity }]);
  });

  it('opens the mouth while speaking and plays audible speech; speak() resolves when done', async () => {
    const silent = await maxMouth(viewer, 1500);
    const peakBefore = viewer.audioPeak;
    const started = Date.now();
    const done = avatar.speak('Hello there, this is the avatar speaking for a little while.');
    const speaking = await maxMouth(viewer, 1500);
    await done;
    expect(Date.now() - started).toBeGreaterThan(2000); // resolved after the speech, not at once
    expect(silent).toBeLessThan(40);
    expect(speaking).toBeGreaterThan(silent + 300);
    expect(peakBefore).toBeLessThan(100); // silence before
    expect(viewer.audioPeak).toBeGreaterThan(3000); // speech arrived
  });

  it('plays 16 kHz PCM with a moving mouth', async () => {
    const pcm = new Int16Array(16_000 * 2);
    for (let i = 0; i < pcm.length; i++)
      pcm[i] = Math.round(9000 * Math.sin((2 * Math.PI * 220 * i) / 16_000) * (Math.floor(i / 3200) % 2));
    avatar.playPcm(pcm);
    expect(await maxMouth(viewer, 1500)).toBeGreaterThan(300);
  });

  it('swaps the picture with setImage and rejects bytes that are not an image', async () => {
    const before = corner(viewer.rgba());
    expect(before[2]).toBeGreaterThan(180); // light blue background
    await avatar.setImage(await face('#2d7a2d'));
    await until(() => {
      const [r, g, b] = corner(viewer.rgba());
      return g! > 90 && b! < 100 && r! < 90;
    }, 'the green background in the video');
    await expect(avatar.setImage(new TextEncoder().encode('not an image'))).rejects.toSatisfy((e) => isLiveAiError(e, 'invalid_request'));
    const sent = avatar.stats().framesSent;
    await until(() => avatar.stats().framesSent > sent + 10, 'frames still being sent'); // still running
  });

  it('close() is idempotent and leaves the room', async () => {
    await Promise.all([avatar.close(), avatar.close()]);
    await avatar.close();
    await until(() => viewer.left.includes(avatarIdentity), 'the avatar leaving');
    // Frames already in the jitter buffer may still arrive; after that the video stays still.
    await new Promise((r) => setTimeout(r, 500));
    const frames = viewer.frames;
    await new Promise((r) => setTimeout(r, 500));
    expect(viewer.frames).toBe(frames);
  });
});

describe('avatar lifecycle errors', () => {
  it('calls onDisconnected once when removed from the room by the server', async () => {
    const room = `media-kick-${Date.now()}`;
    const reasons: string[] = [];
    const avatar = await joinAvatar({
      livekitUrl: url,
      token: await token(room, 'liveai-avatar-kick'),
      image: await face('#cccccc'),
      eventTopic: TOPIC,
      onDisconnected: (reason) => reasons.push(reason),
    });
    const svc = new RoomServiceClient(url.replace(/^ws/, 'http'), apiKey, apiSecret);
    await svc.removeParticipant(room, 'liveai-avatar-kick');
    await until(() => reasons.length > 0, 'onDisconnected');
    await avatar.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(reasons).toHaveLength(1);
    await expect(avatar.speak('after the end')).resolves.toBeUndefined();
  });

  it('rejects with transport_failed for a bad token and invalid_request for a bad image', async () => {
    const base = { livekitUrl: url, eventTopic: TOPIC, image: await face('#cccccc') };
    await expect(joinAvatar({ ...base, token: 'not-a-token' })).rejects.toSatisfy((e) => isLiveAiError(e, 'transport_failed'));
    await expect(joinAvatar({ ...base, token: await token('x', 'liveai-avatar-x'), image: new Uint8Array([1, 2, 3]) })).rejects.toSatisfy(
      (e) => isLiveAiError(e, 'invalid_request'),
    );
  });
});

/**
 * LiveKit outages (docs/emulator.md "LiveKit outages"): on its OWN LiveKit server (port 7895, rtc 7896/7897) so
 * the shared one is not disturbed. A graceful restart (SIGINT → SERVER_SHUTDOWN) makes the avatar rejoin with the
 * same token and republish; a server that stays down makes it give up after `rejoinDeadlineMs`.
 */
describe('avatar rejoin after a LiveKit outage', () => {
  const LK = { port: 7895, rtcTcpPort: 7896, rtcUdpPort: 7897 };
  const own = `ws://127.0.0.1:${LK.port}`;
  let lk: { stop(): Promise<void> } | null = null;
  const start = async () => (lk = (await startLivekit(LK)) as { stop(): Promise<void> });
  beforeAll(start);
  afterAll(async () => {
    await lk?.stop();
  });

  async function ownAvatar(name: string, rejoinDeadlineMs: number, reasons: string[], joined: string[], apps: unknown[] = []) {
    const room = `${name}-${Date.now()}`;
    const avatar = await joinAvatar({
      livekitUrl: own,
      token: await token(room, `liveai-avatar-${name}`),
      image: await face('#9ec5e8'),
      eventTopic: TOPIC,
      rejoinDeadlineMs,
      onDisconnected: (reason) => reasons.push(reason),
      onParticipantJoined: (identity) => joined.push(identity),
      onAppMessage: (message) => apps.push(message),
    });
    return { room, avatar };
  }

  it('a graceful restart: the avatar rejoins on its own, video, events and app messages flow again, the outage is measured', async () => {
    const reasons: string[] = [];
    const joined: string[] = [];
    const apps: unknown[] = [];
    const { room, avatar } = await ownAvatar('rejoin', 60_000, reasons, joined, apps);
    const before = new Viewer('viewer-before');
    await before.room.connect(own, await token(room, before.identity), { autoSubscribe: true, dynacast: false });
    await until(() => before.frames > 10, 'video before the restart');
    expect(avatar.outageMs?.()).toBe(0);

    await lk!.stop();
    await until(() => (avatar.outageMs?.() ?? 0) > 0, 'the avatar noticing the shutdown');
    await expect(avatar.publishEvent({ type: 'bot_ready' })).resolves.toBeUndefined(); // held, not thrown
    await start();

    const after = new Viewer('viewer-after');
    await after.room.connect(own, await token(room, after.identity), { autoSubscribe: true, dynacast: false });
    await until(() => after.frames > 10, 'video after the restart', 30_000);
    await until(() => joined.includes(after.identity), 'the avatar greeting the viewer after rejoining', 30_000);
    await avatar.publishEvent({ type: 'agent_transcription', transcription: 'back again' });
    await until(() => after.messages.some((m) => m.text.includes('back again')), 'an event after the rejoin');
    const chat = { event: 'chat-msg', message: 'still there?', name: 'Ann' };
    await after.room.localParticipant!.publishData(new TextEncoder().encode(JSON.stringify(chat)), { reliable: true, topic: TOPIC });
    await until(() => apps.length > 0, 'an app message after the rejoin');
    expect(apps).toEqual([chat]);
    expect(reasons).toEqual([]);
    const outage = avatar.outageMs?.() ?? 0;
    expect(outage).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(avatar.outageMs?.()).toBe(outage); // the outage is over: it no longer grows
    await avatar.close();
    await before.room.disconnect();
    await after.room.disconnect();
  });

  it('rejoin(): the avatar leaves and joins again with fresh tracks LiveKit lists; video and events reach the viewer again', async () => {
    const reasons: string[] = [];
    const { room, avatar } = await ownAvatar('fresh', 60_000, reasons, []);
    const viewer = new Viewer('viewer-fresh');
    await viewer.room.connect(own, await token(room, viewer.identity), { autoSubscribe: true, dynacast: false });
    await until(() => viewer.frames > 10, 'video before the rejoin');
    const svc = new RoomServiceClient(own.replace(/^ws/, 'http'), apiKey, apiSecret);
    const listed = async () =>
      (await svc.getParticipant(room, 'liveai-avatar-fresh').catch(() => undefined))?.tracks.map((t) => t.sid) ?? [];
    const before = await listed();
    expect(before).toHaveLength(2);

    await avatar.rejoin!();
    let after: string[] = [];
    await until(
      async () => (after = await listed()).length === 2 && after.every((sid) => !before.includes(sid)),
      'two fresh tracks listed',
    );
    const frames = viewer.frames;
    await until(() => viewer.frames > frames + 10, 'video after the rejoin', 30_000);
    await avatar.publishEvent({ type: 'agent_transcription', transcription: 'fresh tracks' });
    await until(() => viewer.messages.some((m) => m.text.includes('fresh tracks')), 'an event after the rejoin');
    expect(reasons).toEqual([]);
    expect(avatar.outageMs?.()).toBeGreaterThan(0); // the rejoin counts as an outage (not charged)
    await avatar.close();
    await viewer.room.disconnect();
  });

  it('a server that stays down: onDisconnected once, after the rejoin deadline', async () => {
    const reasons: string[] = [];
    const { avatar } = await ownAvatar('deadline', 2_000, reasons, []);
    const stoppedAt = Date.now();
    await lk!.stop();
    await until(() => reasons.length > 0, 'onDisconnected', 20_000);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(2_000);
    // SERVER_SHUTDOWN when the leave arrived first; when the socket closed first rtc-node retried on its own.
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^(SERVER_SHUTDOWN|UNKNOWN_REASON), not back within 2 s$/);
    await avatar.close();
    expect(reasons).toHaveLength(1);
    await start();
  });
});

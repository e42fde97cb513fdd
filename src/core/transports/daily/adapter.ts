import { deviceError, isDefaultDevice } from '../../session/devices';
import Daily from '@daily-co/daily-js';
import { LiveAiError } from '../../errors';
import { createEventBus } from '../../events/bus';
import { readAvatarEventMessage } from '../../events/read';
import type { AppMessage } from '../../schemas';
import { AvatarIdentity } from '../avatar-identity';
import type { CallStats, ConnectOptions, Transport, TransportEventMap } from '../types';

/** Event payloads of a Daily call object the adapter reads. */
interface DailyTrackEvent {
  /** The participant; null when it left the call. `session_id` is its id in this call. */
  participant: { local: boolean; session_id: string } | null;
  track: MediaStreamTrack;
  type: string;
}
/** An `app-message`: `fromId` is the sender's `session_id`. */
interface DailyAppMessageEvent {
  data: unknown;
  fromId?: string;
}

/** The part of a daily-js call object the adapter uses (so tests can inject a fake EventEmitter). */
export interface DailyCallLike {
  on(event: string, handler: (event: unknown) => void): unknown;
  off(event: string, handler: (event: unknown) => void): unknown;
  join(properties: { url: string; token?: string; startVideoOff?: boolean; startAudioOff?: boolean }): Promise<unknown>;
  leave(): Promise<void>;
  destroy(): Promise<void>;
  sendAppMessage(data: unknown, to?: string): unknown;
  setLocalAudio(enabled: boolean): unknown;
  setInputDevicesAsync(devices: { audioDeviceId?: string; videoDeviceId?: string }): Promise<unknown>;
  setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown>;
  /** daily-js's network statistics (`getNetworkStats`); its `latest` sample is read. */
  getNetworkStats?(): Promise<{ stats: { latest?: Partial<Record<DailyLatestStat, number | null>> } }>;
  /** daily-js's audio level observers (`remote-participants-audio-level`, `local-audio-level` events). */
  startRemoteParticipantsAudioLevelObserver?(intervalMs?: number): Promise<void>;
  startLocalAudioLevelObserver?(intervalMs?: number): Promise<void>;
}

type DailyLatestStat =
  'networkRoundTripTime' | 'recvBitsPerSecond' | 'videoRecvPacketLoss' | 'audioRecvPacketLoss' | 'videoRecvJitter' | 'audioRecvJitter';

/** Audio level (0–1) above which a participant counts as speaking, and how many quiet samples end it. */
const SPEAKING_LEVEL = 0.02;
const QUIET_SAMPLES = 3;
/** How often daily-js reports audio levels, ms. */
const LEVEL_INTERVAL_MS = 200;

/** daily-js gives seconds and fractions; `CallStats` has ms and percent. Null stays null. */
function dailyStats(latest: Partial<Record<DailyLatestStat, number | null>> = {}, at = Date.now()): CallStats {
  const max = (a?: number | null, b?: number | null) => (a == null && b == null ? null : Math.max(a ?? 0, b ?? 0));
  const scale = (v: number | null, k: number) => (v == null ? null : v * k);
  return {
    rttMs: scale(latest.networkRoundTripTime ?? null, 1000),
    jitterMs: scale(max(latest.videoRecvJitter, latest.audioRecvJitter), 1000),
    packetLossPct: scale(max(latest.videoRecvPacketLoss, latest.audioRecvPacketLoss), 100),
    fps: null,
    bitrateKbps: scale(latest.recvBitsPerSecond ?? null, 1 / 1000),
    at,
  };
}

const message = (e: unknown) => String((e as { errorMsg?: string; message?: string })?.errorMsg ?? (e as Error)?.message ?? e);

/**
 * The Daily adapter (`rtc-b` rooms) on a @daily-co/daily-js call object. Only the avatar participant is listened
 * to (see `AvatarIdentity`): the first remote participant that sends a service event or starts a track. Its events
 * arrive as `app-message` data, its tracks as `track-started` / `track-stopped`; anyone else's messages and tracks are
 * ignored. `network-connection` interrupted →
 * `reconnecting`, connected → `connected`; `left-meeting` we did not ask for, or a fatal `error`, is
 * `transport_failed`; the avatar's `participant-left` is `avatarLeft`. App messages go to everyone (`'*'`).
 * @param deps.createCallObject inject a call object (tests); default `Daily.createCallObject`.
 */
export function createDailyTransport(deps: { createCallObject?: () => DailyCallLike } = {}): Transport {
  const bus = createEventBus<TransportEventMap>();
  let call: DailyCallLike | null = null;
  let leaving = false;
  let joined = false;
  let gone = false;
  const offs: (() => void)[] = [];
  const listen = <E>(c: DailyCallLike, event: string, fn: (e: E) => void) => {
    c.on(event, fn as (e: unknown) => void);
    offs.push(() => c.off(event, fn as (e: unknown) => void));
  };
  const lost = (reason: string, detail: string) => {
    if (gone) return;
    gone = true;
    joined = false;
    bus.emit('connection', 'disconnected');
    bus.emit('disconnected', leaving ? { reason: 'client' } : { reason, error: new LiveAiError('transport_failed', detail) });
  };

  const wire = (c: DailyCallLike) => {
    const avatar = new AvatarIdentity({ firstSeen: true });
    const shown: Partial<Record<'audio' | 'video', MediaStreamTrack>> = {};
    listen<DailyAppMessageEvent>(c, 'app-message', (e) => {
      if (!avatar.accepts(e?.fromId)) return;
      readAvatarEventMessage(e?.data, (parsed) => {
        if (!parsed.ok) bus.emit('invalidMessage', { error: parsed.error, raw: e?.data });
        // Checked again once parsed: another participant may have been taken for the avatar meanwhile.
        else if (avatar.claim(e?.fromId)) bus.emit('event', parsed.event);
      });
    });
    const onTrack = (present: boolean) => (e: DailyTrackEvent) => {
      if (e?.participant?.local && e.type === 'audio') return bus.emit('micTrack', { track: present ? e.track : null });
      if (!e?.participant || e.participant.local || (e.type !== 'audio' && e.type !== 'video')) return;
      if (present ? !avatar.claim(e.participant.session_id) : shown[e.type] !== e.track) return;
      if (present) shown[e.type] = e.track;
      else delete shown[e.type];
      bus.emit('track', { kind: e.type, track: present ? e.track : null });
    };
    listen(c, 'track-started', onTrack(true));
    listen(c, 'track-stopped', onTrack(false));
    listen<{ event: string }>(c, 'network-connection', (e) => {
      if (!joined) return;
      if (e?.event === 'interrupted') bus.emit('connection', 'reconnecting');
      else if (e?.event === 'connected') bus.emit('connection', 'connected');
    });
    // Who is speaking, from daily-js's audio levels: on above SPEAKING_LEVEL, off after QUIET_SAMPLES quiet samples.
    const quiet = { avatar: QUIET_SAMPLES, user: QUIET_SAMPLES };
    const level = (who: 'avatar' | 'user', value: number) => {
      const was = quiet[who] < QUIET_SAMPLES;
      quiet[who] = value > SPEAKING_LEVEL ? 0 : Math.min(QUIET_SAMPLES, quiet[who] + 1);
      if (was !== quiet[who] < QUIET_SAMPLES) bus.emit('speaking', { who, speaking: !was });
    };
    listen<{ participantsAudioLevel?: Record<string, number> }>(c, 'remote-participants-audio-level', (e) =>
      level('avatar', Math.max(0, ...Object.values(e?.participantsAudioLevel ?? {}))),
    );
    listen<{ audioLevel?: number }>(c, 'local-audio-level', (e) => level('user', e?.audioLevel ?? 0));
    // The avatar left the call (daily-js's `participant-left`, sent once Daily gave up waiting for it). It cannot come
    // back as the avatar: a participant that joins again is a new one, with a new `session_id`. So it is said at once.
    listen<{ participant?: { session_id?: string; local?: boolean } | null }>(c, 'participant-left', (e) => {
      const id = e?.participant?.session_id;
      if (joined && id && !e?.participant?.local && id === avatar.current) bus.emit('avatarLeft', { identity: id });
    });
    listen(c, 'left-meeting', () => lost('left-meeting', 'left the Daily room unexpectedly'));
    listen(c, 'error', (e) => lost('error', `Daily room error: ${message(e)}`));
  };

  const requireCall = () => {
    if (!call || !joined) throw new LiveAiError('transport_failed', 'not connected to the room');
    return call;
  };

  const transport: Transport = {
    kind: 'rtc-b',
    async connect(o: ConnectOptions) {
      if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
      leaving = false;
      gone = false;
      const c = (call = deps.createCallObject
        ? deps.createCallObject()
        : (Daily.createCallObject({ videoSource: false, subscribeToTracksAutomatically: true }) as unknown as DailyCallLike));
      wire(c);
      bus.emit('connection', 'connecting');
      const onAbort = () => void transport.disconnect();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await c.join({
          url: o.url,
          ...(o.token ? { token: o.token } : {}),
          startVideoOff: true,
          startAudioOff: !o.micEnabled,
          ...(o.micEnabled && o.micDeviceId ? { audioSource: o.micDeviceId } : {}),
        });
      } catch (cause) {
        if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled', { cause });
        offs.splice(0).forEach((off) => off());
        call = null;
        await c.destroy().catch(() => {});
        bus.emit('connection', 'disconnected');
        throw new LiveAiError('transport_failed', `could not join the Daily room: ${message(cause)}`, { cause });
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      joined = true;
      bus.emit('connection', 'connected');
      void c.startRemoteParticipantsAudioLevelObserver?.(LEVEL_INTERVAL_MS).catch(() => {});
      void c.startLocalAudioLevelObserver?.(LEVEL_INTERVAL_MS).catch(() => {});
      if (o.micEnabled) bus.emit('mic', { enabled: true });
    },
    async disconnect() {
      const c = call;
      if (!c) return;
      leaving = true;
      call = null;
      try {
        await c.leave();
      } finally {
        lost('client', '');
        offs.splice(0).forEach((off) => off());
        await c.destroy().catch(() => {});
      }
    },
    async sendAppMessage(msg: AppMessage) {
      requireCall().sendAppMessage(msg, '*');
    },
    async setMicEnabled(enabled) {
      requireCall().setLocalAudio(enabled);
      bus.emit('mic', { enabled });
    },
    async setDevice(kind, deviceId) {
      const c = requireCall();
      try {
        // Daily takes only a listed id: the default is the `default` entry (Chromium) or the first device listed.
        const id = isDefaultDevice(deviceId) ? await defaultDeviceId(kind) : deviceId;
        if (kind === 'audiooutput') await c.setOutputDeviceAsync({ outputDeviceId: id });
        else await c.setInputDevicesAsync(kind === 'audioinput' ? { audioDeviceId: id } : { videoDeviceId: id });
      } catch (cause) {
        throw deviceError(kind, deviceId, cause);
      }
    },
    async getStats() {
      if (!call || !joined || !call.getNetworkStats) return null;
      const s = await call.getNetworkStats().catch(() => null);
      return s ? dailyStats(s.stats?.latest) : null;
    },
    on: (name, handler) => bus.on(name, handler),
  };
  return transport;
}

/**
 * The id a Daily call takes for the system default of `kind`: the `default` entry where the browser lists one, else
 * the first device of that kind, else `''`.
 */
async function defaultDeviceId(kind: MediaDeviceKind): Promise<string> {
  const devices = (await globalThis.navigator?.mediaDevices?.enumerateDevices?.()) ?? [];
  const ofKind = devices.filter((d) => d.kind === kind);
  return ofKind.find((d) => d.deviceId === 'default')?.deviceId ?? ofKind[0]?.deviceId ?? '';
}

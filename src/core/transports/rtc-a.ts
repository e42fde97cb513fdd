import { LogLevel, Room, setLogLevel } from 'livekit-client';
import { LiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import type { AppMessage } from '../schemas';
import { RtcALink } from './rtc-a-link';
import { TRANSCRIPTION_TOPIC, transcriptionHandler } from './rtc-a-transcription';
import { DEFAULT_RECONNECT_POLICY, type ReconnectPolicy } from './reconnect-policy';
import type { RoomLike } from './rtc-a-room';
import type { ConnectOptions, Transport, TransportEventMap } from './types';

export { handleDataMessage } from './rtc-a-link';
export type { RoomLike } from './rtc-a-room';
export { DEFAULT_RECONNECT_POLICY, type ReconnectPolicy } from './reconnect-policy';
export { LK_REASON, retryDelayMs, shouldReconnect } from './rtc-a-reconnect';

/** The error of a browser that has no WebRTC (`RTCPeerConnection`): `transport_failed`, not retryable. */
const noWebRtc = () =>
  new LiveAiError(
    'transport_failed',
    'This browser cannot make video calls (it has no WebRTC). Open this page in a current Chrome, Edge, Firefox or Safari.',
    { retryable: false },
  );

let quieted = false;
/**
 * livekit-client logs several `info` lines on every connect. The first rtc-a adapter lowers its level to `warn`,
 * once per page, unless the page chose a level already: livekit-client's public `setLogLevel` keeps the chosen
 * level under loglevel's `loglevel:livekit` storage key, which is looked at first. A level set later always wins.
 */
export function quietLiveKitLogs(storage?: Pick<Storage, 'getItem'>): void {
  try {
    if ((storage ?? globalThis.localStorage)?.getItem('loglevel:livekit') != null) return;
  } catch {
    // storage blocked: the page cannot have persisted a level either
  }
  if (quieted) return;
  quieted = true;
  setLogLevel(LogLevel.warn);
}

/**
 * rtc-a adapter on livekit-client (docs/core.md "Reconnect"), public livekit-client API but for one feature-detected
 * engine event. Events arrive as data messages on the event topic; the avatar's tracks as `TrackSubscribed`, or
 * earlier, while the room joins, from livekit-client's engine (`mediaTrackAdded`, see RoomSession). Short drops are
 * healed by livekit-client itself (`Reconnecting` → `Reconnected`); a `Disconnected` for a recoverable reason
 * (SERVER_SHUTDOWN, signal/ICE failure, livekit-client giving up, …) is retried here with a fresh Room, the same
 * URL and token, with backoff and jitter, until the reconnect deadline from the first drop. Meanwhile
 * `connection` is `reconnecting`; after the deadline the adapter emits `disconnected` with `transport_failed`.
 * Our own `disconnect()` and a sent `force-end` are never retried. App messages are reliable JSON on the event
 * topic, queued in order while joining or reconnecting and until the avatar participant is back.
 * @param deps.createRoom inject a Room (tests); default `new Room()`. Called once per join attempt.
 * @param deps.reconnect overrides of `DEFAULT_RECONNECT_POLICY` (ms); `connect({reconnectDeadlineMs})` overrides
 *   the deadline of that connection only.
 */
export function createRtcATransport(deps: { createRoom?: () => RoomLike; reconnect?: Partial<ReconnectPolicy> } = {}): Transport {
  const base: Readonly<ReconnectPolicy> = Object.freeze({ ...DEFAULT_RECONNECT_POLICY, ...deps.reconnect });
  const bus = createEventBus<TransportEventMap>();
  const newRoom = deps.createRoom ?? (() => new Room() as unknown as RoomLike);
  let link: RtcALink | null = null;
  const current = () => {
    if (!link || link.state === 'closed') throw new LiveAiError('transport_failed', 'not connected to the room');
    return link;
  };

  const transport: Transport = {
    kind: 'rtc-a',
    async connect(o: ConnectOptions) {
      if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
      // A browser without WebRTC (some WebViews, WebKitGTK builds, privacy modes) cannot join: say so, not retryable.
      if (!deps.createRoom && typeof globalThis.RTCPeerConnection !== 'function') throw noWebRtc();
      if (!deps.createRoom) quietLiveKitLogs();
      await link?.close(new LiveAiError('transport_failed', 'a new connection replaced this one'));
      const policy = Object.freeze({ ...base, deadlineMs: o.reconnectDeadlineMs ?? base.deadlineMs });
      const textStreams = {
        [TRANSCRIPTION_TOPIC]: transcriptionHandler(
          () => l.room?.room.localParticipant.identity,
          (v) => bus.emit('transcription', v),
        ),
      };
      const l: RtcALink = (link = new RtcALink({ url: o.url, token: o.token, topic: o.eventTopic, policy, newRoom, bus, textStreams }));
      const onAbort = () => void transport.disconnect();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await l.open();
      } catch (cause) {
        if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled', { cause });
        // The same error for the join and for anything sent meanwhile.
        const error = new LiveAiError('transport_failed', `could not join the rtc-a room: ${String((cause as Error)?.message ?? cause)}`, {
          cause,
        });
        await l.close(error);
        bus.emit('connection', 'disconnected');
        throw error;
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      if (o.micEnabled) await l.setMic(true);
    },
    async disconnect() {
      const l = link;
      if (!l || l.state === 'closed') return;
      await l.close(new LiveAiError('transport_failed', 'left the room before the message could be sent'));
      bus.emit('connection', 'disconnected');
      bus.emit('disconnected', { reason: 'client' });
    },
    sendAppMessage: async (message: AppMessage) => current().send(message),
    setMicEnabled: async (enabled) => current().setMic(enabled),
    setDevice: async (kind, deviceId) => current().setDevice(kind, deviceId),
    on: (name, handler) => bus.on(name, handler),
  };
  return transport;
}

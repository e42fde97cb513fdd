import { LogLevel, Room, setLogLevel } from 'livekit-client';
import { LiveAiError, hasWebRtc, noWebRtc } from '../../errors';
import { createEventBus } from '../../events/bus';
import type { AppMessage } from '../../schemas';
import { LiveKitLink } from './link';
import { DEFAULT_RECONNECT_POLICY, type ReconnectPolicy } from './policy';
import { AvatarIdentity } from '../avatar-identity';
import { TRANSCRIPTION_TOPIC, transcriptionHandler, type RoomLike } from './room';
import { createStatsReader } from '../webrtc-stats';
import { INTERRUPT_RPC_METHOD } from '../../constants';
import type { ConnectOptions, Transport, TransportEventMap } from '../types';

export { handleDataMessage } from './link';
export { AvatarIdentity } from '../avatar-identity';
export type { RoomLike } from './room';
export { DEFAULT_RECONNECT_POLICY, type ReconnectPolicy } from './policy';
export { LK_REASON, retryDelayMs, shouldReconnect } from './link';

let quieted = false;
/**
 * livekit-client logs several `info` lines on every connect. The first LiveKit adapter lowers its level to `warn`,
 * once per page, unless the page chose a level already: livekit-client's public `setLogLevel` keeps the chosen
 * level under loglevel's `loglevel:livekit` storage key, which is looked at first. A level set later always wins.
 */
export function quietLiveKitLogs(storage?: Pick<Storage, 'getItem'>): void {
  if (quieted) return; // once per page: no storage read on every join
  try {
    if ((storage ?? globalThis.localStorage)?.getItem('loglevel:livekit') != null) return;
  } catch {
    // storage blocked: the page cannot have persisted a level either
  }
  quieted = true;
  setLogLevel(LogLevel.warn);
}

/** The Room made ahead of the first join (`prepareRoom`), until a join takes it. */
let prepared: Room | null = null;
/** A Room is wanted ahead: `prepareRoom` was called and no join has made or taken one since. */
let wanted = false;

/**
 * Makes one livekit-client Room ahead of the first join, once the page is idle. The adapter loads before the Start
 * click (a session's prefetch), and making a Room (its engine and managers) costs the main thread a few ms that would
 * otherwise fall between the click and the first frame. A Room that is never joined opens no connection and touches
 * no device; the first join takes it, later joins make their own.
 */
export function prepareRoom(): void {
  if (wanted || prepared || typeof window === 'undefined' || !hasWebRtc()) return;
  wanted = true;
  const make = () => {
    if (!wanted || prepared) return;
    quietLiveKitLogs();
    prepared = new Room();
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(make, { timeout: 1000 });
  else setTimeout(make, 0);
}

/** The LiveKit servers this page warmed a connection to (`prepareConnection`): each once. */
const preparedUrls = new Set<string>();

/**
 * Warms the connection to the LiveKit server at `url` ahead of the first join, with livekit-client's public
 * `Room.prepareConnection` (DNS, TCP and TLS to the server; the region lookup on LiveKit Cloud needs a token and is
 * left to the join), on the Room the first join will take. Once per URL for the page; nothing outside a browser that
 * can make calls. Never throws.
 */
export function prepareConnection(url: string): void {
  if (preparedUrls.has(url) || typeof window === 'undefined' || !hasWebRtc()) return;
  preparedUrls.add(url);
  quietLiveKitLogs();
  wanted = true;
  prepared ??= new Room();
  prepared.prepareConnection(url).catch(() => undefined);
}

/** The prepared Room if there is one, else a new one. */
function takeRoom(): Room {
  const room = prepared ?? new Room();
  prepared = null;
  wanted = false;
  return room;
}

/**
 * The LiveKit adapter (`rtc-a` rooms) on livekit-client's public API (docs/core.md "Reconnect"). Only the avatar
 * participant is listened to (see `AvatarIdentity`): its service events arrive as data messages on the event topic,
 * its tracks as `TrackSubscribed`; data, tracks and transcriptions of anyone else are ignored. Short drops are
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
export function createLiveKitTransport(deps: { createRoom?: () => RoomLike; reconnect?: Partial<ReconnectPolicy> } = {}): Transport {
  const base: Readonly<ReconnectPolicy> = Object.freeze({ ...DEFAULT_RECONNECT_POLICY, ...deps.reconnect });
  const bus = createEventBus<TransportEventMap>();
  const newRoom = deps.createRoom ?? (() => takeRoom() as unknown as RoomLike);
  let link: LiveKitLink | null = null;
  let avatarOf: AvatarIdentity | null = null;
  const readStats = createStatsReader();
  const current = () => {
    if (!link || link.state === 'closed') throw new LiveAiError('transport_failed', 'not connected to the room');
    return link;
  };

  const transport: Transport = {
    kind: 'rtc-a',
    async connect(o: ConnectOptions) {
      if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
      // A browser without WebRTC cannot join: say so, not retryable. The session engine already refuses to create
      // a session in such a browser; this covers a room found only in the create answer (a WebSocket session's).
      if (!deps.createRoom && !hasWebRtc()) throw noWebRtc();
      if (!deps.createRoom) quietLiveKitLogs();
      await link?.close(new LiveAiError('transport_failed', 'a new connection replaced this one'));
      const policy = Object.freeze({ ...base, deadlineMs: o.reconnectDeadlineMs ?? base.deadlineMs });
      const avatar = (avatarOf = new AvatarIdentity({ expected: o.avatarIdentity }));
      const textStreams = {
        [TRANSCRIPTION_TOPIC]: transcriptionHandler(
          () => l.room?.room.localParticipant.identity,
          (v) => bus.emit('transcription', v),
          (identity) => avatar.speaksFor(identity),
        ),
      };
      const l: LiveKitLink = (link = new LiveKitLink({
        url: o.url,
        token: o.token,
        topic: o.eventTopic,
        policy,
        newRoom,
        bus,
        textStreams,
        avatar,
        jitterBufferTargetMs: o.jitterBufferTargetMs,
        preConnectMic: !!(o.micEnabled && o.preConnectAudio),
      }));
      if (o.micDeviceId) l.chooseDevice('audioinput', o.micDeviceId);
      const onAbort = () => void transport.disconnect();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await l.open();
      } catch (cause) {
        if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled', { cause });
        // The same error for the join and for anything sent meanwhile.
        const error = new LiveAiError(
          'transport_failed',
          `could not join the LiveKit room: ${String((cause as Error)?.message ?? cause)}`,
          {
            cause,
          },
        );
        await l.close(error);
        bus.emit('connection', 'disconnected');
        throw error;
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      // Already on with the pre-connect buffer: this confirms it (and reports it), or tries once more if it failed.
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
    async interrupt() {
      const l = current();
      const agent = avatarOf?.agent;
      const local = l.room?.room.localParticipant;
      if (!agent)
        throw new LiveAiError(
          'invalid_request',
          'interrupting is not available here: the avatar speaks for no LiveKit agent (the service offers no interrupt for its own agent)',
          {
            status: 400,
          },
        );
      if (!local?.performRpc) throw new LiveAiError('transport_failed', 'not connected to the room');
      try {
        await local.performRpc({ destinationIdentity: agent, method: INTERRUPT_RPC_METHOD, payload: '', responseTimeout: 5000 });
      } catch (cause) {
        // livekit-client's RpcError 1400: the agent registered no such method.
        if ((cause as { code?: number } | null)?.code === 1400)
          throw new LiveAiError(
            'invalid_request',
            `the agent does not offer interrupting: register the RPC method ${INTERRUPT_RPC_METHOD}`,
            {
              status: 400,
              cause,
            },
          );
        throw new LiveAiError('transport_failed', `the agent did not take the interrupt: ${String((cause as Error)?.message ?? cause)}`, {
          cause,
        });
      }
    },
    setMicEnabled: async (enabled) => current().setMic(enabled),
    setDevice: async (kind, deviceId) => current().setDevice(kind, deviceId),
    async getStats() {
      const room = link?.state === 'closed' ? null : link?.room;
      return room ? readStats(await room.stats()) : null;
    },
    on: (name, handler) => bus.on(name, handler),
  };
  return transport;
}

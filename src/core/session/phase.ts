import type { ClientSession, MediaTransport, SessionStatus } from '../schemas';
import type { ConnectionState, TransportLoader } from '../transports/types';
import type { AvatarSessionOptions } from './types';
import { transportOfRoomUrl } from '../../shared/room-url';
import { predictTransport, registeredTransports } from '../transports/load';
import { predictRoomTransport } from '../transports/predict';

export { RUNNING_PHASES, isRunning, isWaiting } from '../../shared/phases';

/** What the running phase is derived from. */
export interface Facts {
  status: SessionStatus | null;
  connection: ConnectionState;
  hasRoom: boolean;
  wasActive: boolean;
  /** The avatar's video is arriving: its track is there and not muted (frames come in). */
  videoFlowing?: boolean;
}

/**
 * Phase of a started session, pure:
 * - no status yet → `creating` (the create call and the first status poll are under way);
 * - `QUEUED` → `queued` (the room may already be joined, so the avatar shows the moment it is live);
 * - `ACTIVE` → `active` once the room is connected or the avatar's video is arriving (which can come a little
 *   before the room says it is connected), or when there is no room to join, or it was active before and is only
 *   reconnecting; else `connecting`.
 * Final statuses are handled by the engine (`ended` / `error`).
 */
export function derivePhase(input: Facts): 'creating' | 'queued' | 'connecting' | 'active' {
  if (input.status === null) return 'creating';
  if (input.status === 'QUEUED') return input.wasActive ? 'active' : 'queued';
  if (!input.hasRoom || input.wasActive || input.connection === 'connected' || input.videoFlowing) return 'active';
  return 'connecting';
}

/**
 * Chooses the media transport of a session: an explicit choice wins; otherwise a `ws://` or
 * `wss://` room URL is `rtc-a` (LiveKit) and an `http(s)://` URL is `rtc-b` (Daily). Returns null when there
 * is no room to join (e.g. a websocket session without a viewer room).
 */
export function chooseTransport(session: Pick<ClientSession, 'room_url' | 'transport'>, forced?: MediaTransport): MediaTransport | null {
  if (!session.room_url) return null;
  return forced ?? transportOfRoomUrl(session.room_url);
}

/**
 * The media transport a session will join, when it is known before the session is created: a forced
 * `transport`, the `transport_type` of a session request (`websocket-rtc-a` joins rtc-a), or the room URL of an
 * attached session. Hosted rooms learn it from `room_url` only after creation, so for them it is a prediction
 * (`predictTransport`: the only registered transport, or the one the last session joined), else null.
 */
export function transportHint(options: Pick<AvatarSessionOptions, 'transport' | 'flow'>): MediaTransport | null {
  if (options.transport) return options.transport;
  const { flow } = options;
  if (flow.kind === 'session') return flow.request.transport_type.endsWith('rtc-a') ? 'rtc-a' : 'rtc-b';
  if (flow.kind === 'attach') return chooseTransport(flow.session);
  return predictTransport();
}

/**
 * Starts downloading the adapter and SDK of the transport the session will join (see `prefetch()`): the one
 * `transportHint` knows, synchronously; for a hosted room on a page with several transports registered and no
 * explicit `transport`, the one the proxy advertises for its rooms (when registered), else the one the last
 * session joined. Never rejects; a transport the page did not register is never downloaded.
 */
export function prefetchTransport(
  options: Pick<AvatarSessionOptions, 'transport' | 'flow' | 'proxyUrl' | 'fetch'>,
  load: TransportLoader,
): void {
  const skip = () => undefined;
  if (options.transport || options.flow.kind !== 'room' || registeredTransports().length <= 1) {
    const kind = transportHint(options);
    if (kind) load(kind).catch(skip);
    return;
  }
  predictRoomTransport(options)
    .then((kind) => kind && load(kind))
    .catch(skip);
}

import { randomBytes } from 'node:crypto';
import { AccessToken, RoomServiceClient, TrackType } from 'livekit-server-sdk';
import type { LivekitConfig } from './options';

/**
 * Name of the LiveKit room of a hosted session: `liveai-room-<16 random hex>`. Not derived from the session id:
 * the viewer's room token shows the room name, and the session id must not reach a browser.
 */
export const newRoomName = (): string => `liveai-room-${randomBytes(8).toString('hex')}`;
/** Identity of the avatar participant of a hosted session (`liveai-avatar-<8 random hex>`; every participant sees it). */
export const newAvatarIdentity = (): string => `liveai-avatar-${randomBytes(4).toString('hex')}`;

/**
 * Mints a LiveKit access token (a secret) for `identity` in `room` with publish, subscribe and data rights.
 * @param ttl token lifetime, e.g. `'6h'`.
 */
export async function mintToken(lk: LivekitConfig, room: string, identity: string, ttl = '6h'): Promise<string> {
  const at = new AccessToken(lk.apiKey, lk.apiSecret, { identity, ttl });
  at.addGrant({ roomJoin: true, room, canPublish: true, canSubscribe: true, canPublishData: true });
  return at.toJwt();
}

/** Viewer identity of a hosted room: `user-<8 hex>`. */
export const viewerIdentity = (): string => `user-${randomBytes(4).toString('hex')}`;

/**
 * Creates the room on the LiveKit server (HTTP API at the same host as `lk.url`).
 * @throws Error when the server cannot be reached within `timeoutMs`.
 */
export async function createLivekitRoom(lk: LivekitConfig, name: string, timeoutMs: number): Promise<void> {
  await roomService(lk, timeoutMs).createRoom({ name, emptyTimeout: 600, departureTimeout: 30 });
}

/** LiveKit's server API at the same host as `lk.url`, each request given up after `timeoutMs`. */
function roomService(lk: LivekitConfig, timeoutMs: number): RoomServiceClient {
  const http = lk.url.replace(/^ws(s?):/, 'http$1:');
  return new RoomServiceClient(http, lk.apiKey, lk.apiSecret, { requestTimeout: Math.ceil(timeoutMs / 1000) });
}

/**
 * Whether LiveKit lists `identity` in `room` with both a video and an audio track. `undefined` when the server
 * cannot say (not reachable within `timeoutMs`, or the participant is not in the room).
 */
export async function publishesMedia(lk: LivekitConfig, room: string, identity: string, timeoutMs: number): Promise<boolean | undefined> {
  const p = await roomService(lk, timeoutMs)
    .getParticipant(room, identity)
    .catch(() => undefined);
  if (!p) return undefined;
  const kinds = new Set(p.tracks.map((t) => t.type));
  return kinds.has(TrackType.VIDEO) && kinds.has(TrackType.AUDIO);
}

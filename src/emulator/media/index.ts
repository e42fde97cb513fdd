/**
 * Media side of the local avatar service: a synthetic talking avatar that joins a LiveKit room
 * with `@livekit/rtc-node`. Loaded with `import('./media/index.js')` only when the emulator runs `--media on`.
 */
import { Room } from '@livekit/rtc-node';
import { LiveAiError } from '../../core/index';
import { errorText, LiveKitAvatar } from './avatar';
import { decodePortrait } from './portrait';
import type { AvatarMediaOptions, JoinAvatar } from './types';

export type { AvatarMedia, AvatarMediaOptions, Demeanour, FaceLayout, JoinAvatar } from './types';
export { AVATAR_IDENTITY_PREFIX } from './avatar';
export { FACE_LAYOUT, FRAME_HEIGHT, FRAME_WIDTH } from './face';
export { decodePortrait } from './portrait';

function check(o: AvatarMediaOptions): void {
  const bad = (what: string) => {
    throw new LiveAiError('invalid_request', what);
  };
  if (typeof o?.livekitUrl !== 'string' || !/^wss?:\/\//.test(o.livekitUrl)) bad('livekitUrl must be a ws:// or wss:// URL');
  if (typeof o.token !== 'string' || o.token.length === 0) bad('token is required');
  if (typeof o.eventTopic !== 'string' || o.eventTopic.length === 0) bad('eventTopic is required');
  if (o.fps !== undefined && !(Number.isFinite(o.fps) && o.fps >= 1 && o.fps <= 60)) bad('fps must be between 1 and 60');
}

/**
 * Joins the room at `options.livekitUrl` with `options.token` and publishes the avatar: video 368×560 at
 * `options.fps` (default 25) as the camera track, audio 48 kHz mono as the microphone track (silence when quiet),
 * service events as reliable JSON data messages on `options.eventTopic`.
 *
 * Errors (`LiveAiError`): `invalid_request` for bad options or an image sharp cannot decode; `transport_failed`
 * when the room cannot be joined or the tracks cannot be published. The token is never part of an error text.
 */
export const joinAvatar: JoinAvatar = async (options) => {
  check(options);
  const portrait = await decodePortrait(options.image, options.faceLayout);
  const room = new Room();
  try {
    await room.connect(options.livekitUrl, options.token, { autoSubscribe: false, dynacast: false });
  } catch (e) {
    throw new LiveAiError('transport_failed', `the avatar could not join the LiveKit room at ${options.livekitUrl}: ${errorText(e)}`, {
      cause: e,
    });
  }
  try {
    return await LiveKitAvatar.start(room, portrait, options);
  } catch (e) {
    await room.disconnect().catch(() => {});
    if (e instanceof LiveAiError) throw e;
    throw new LiveAiError('transport_failed', `the avatar could not publish its tracks: ${errorText(e)}`, { cause: e });
  }
};

import { useMemo } from 'react';
import type { AvatarSession, MediaState } from '../core/index';
import { useAvatarSession, useSessionState } from './session';

/**
 * What {@link useMedia} returns: the media state (tracks, microphone, speaker mute, volume 0..1, connection) with
 * its setters.
 * @public
 */
export type UseMediaResult = MediaState &
  Pick<AvatarSession, 'setMicEnabled' | 'setSpeakerMuted' | 'setVolume' | 'setDevice' | 'unblockAudio'>;

/**
 * Media of the room: connection, the avatar's video/audio tracks, `audioBlocked` (show "tap to unmute" and call
 * `unblockAudio()` from the tap), mic, speaker mute and volume (0..1), with their setters.
 * Render `videoTrack` in a muted `<video>`: the session plays the audio itself.
 * @public
 */
export function useMedia(): UseMediaResult {
  const session = useAvatarSession();
  const media = useSessionState((s) => s.media);
  const actions = useMemo(
    () => ({
      setMicEnabled: session.setMicEnabled,
      setSpeakerMuted: session.setSpeakerMuted,
      setVolume: session.setVolume,
      setDevice: session.setDevice,
      unblockAudio: session.unblockAudio,
    }),
    [session],
  );
  return useMemo(() => ({ ...media, ...actions }), [media, actions]);
}

import { useEffect, useState } from 'react';
import type { Phase } from '../../core/index';

/** How long a call may connect without video before the session's own image is shown as the poster, in ms. */
export const SESSION_POSTER_DELAY_MS = 1000;

/**
 * Whether the session's own image (`image_url` of the create answer) is worth its download and decode as a poster:
 * while queued (a cold start lasts seconds to minutes), once the call is ending, ended or failed, or when the call
 * has gone {@link SESSION_POSTER_DELAY_MS} without video. A fast connect shows the video about a tenth of a second
 * after the create answer; loading an image the video then covers would only compete with the connect for the
 * CPU. Once due, it stays due until the next start.
 */
export function useSessionPosterDue(phase: Phase, showingVideo: boolean): boolean {
  const [late, setLate] = useState(false);
  // The phases in which the avatar's video is on its way or playing.
  const videoPhase = phase === 'creating' || phase === 'connecting' || phase === 'active';
  const waitingForVideo = videoPhase && !showingVideo;
  useEffect(() => {
    if (phase === 'creating') setLate(false);
  }, [phase]);
  useEffect(() => {
    if (!waitingForVideo || late) return;
    const timer = setTimeout(() => setLate(true), SESSION_POSTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [waitingForVideo, late]);
  return late || (phase !== 'idle' && !videoPhase);
}

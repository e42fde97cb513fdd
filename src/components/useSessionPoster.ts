import { useEffect, useState } from 'react';
import type { Phase } from '../core/session/types';

/** How long a call may connect without video before the session's own image is shown as the poster, in ms. */
export const SESSION_POSTER_DELAY_MS = 1000;

/**
 * The session's own image (`image_url` of the create answer) as a poster, only when it is worth its download and
 * decode: while queued (a cold start lasts seconds to minutes), once the call is ending, ended or failed, or when
 * the call has gone {@link SESSION_POSTER_DELAY_MS} without video. A fast connect shows the video about a tenth of a
 * second after the create answer; loading an image the video then covers would only compete with the connect
 * for the CPU. Once shown, it stays until the next start. Null when it is not (yet) due.
 */
export function useSessionPoster(phase: Phase, sessionImageUrl: string | null, showingVideo: boolean): string | null {
  const [late, setLate] = useState(false);
  const connecting = phase === 'creating' || phase === 'connecting' || phase === 'active';
  const waitingForVideo = connecting && !showingVideo;
  useEffect(() => {
    if (phase === 'creating') setLate(false);
  }, [phase]);
  useEffect(() => {
    if (!waitingForVideo || late) return;
    const timer = setTimeout(() => setLate(true), SESSION_POSTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [waitingForVideo, late]);
  const due = late || (phase !== 'idle' && !connecting);
  return due ? sessionImageUrl : null;
}

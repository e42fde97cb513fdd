import { useEffect, useState } from 'react';
import type { Phase } from '../../core/index';
import { useSessionVideoTrack } from '../primitives/AvatarVideo';
import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { AvatarStageView, type AvatarStageViewProps } from './AvatarStageView';
import { expiresAtMs, timeLimitReached, useCallClock } from './clock';

/** Props of {@link AvatarStage}: the view's props that do not come from the session, all optional. */
export type AvatarStageProps = Partial<
  Omit<
    AvatarStageViewProps,
    'phase' | 'videoTrack' | 'audioTrack' | 'queue' | 'error' | 'cost' | 'endReason' | 'timeLimitReached' | 'agentState'
  >
>;

/**
 * The avatar of the nearest `AvatarSessionProvider`: its video track, poster (the `imageUrl` prop; the session's own
 * image instead while queued, after the call, or when a call goes 1 s without video), the wait counted from the click
 * on Start, "Tap to unmute" wired to `unblockAudio()`, start / retry / start again, and what the agent is doing
 * (`useAgentState()`: a ring that follows listening / thinking / speaking, announced politely; `showAgentState={false}`
 * leaves it out). The session plays the audio itself, so no audio track is given to the view.
 */
export function AvatarStage(props: AvatarStageProps) {
  const session = useAvatarSession();
  // Only what the stage shows: the create answer (session id, transport) and status polls do not re-render it while
  // the call connects.
  const { phase, error, cost, endReason } = useSessionState(
    useShallow((st) => ({ phase: st.phase, error: st.error, cost: st.cost, endReason: st.endReason })),
  );
  // Only the media fields the stage shows: moving the volume slider does not re-render the video. The track is shown
  // the moment the session has it, as a bare `track.attach(video)` would, not after a render.
  const { track: videoTrack, watchTrack: watchVideoTrack } = useSessionVideoTrack();
  const audioBlocked = useSessionState((st) => st.media.audioBlocked);
  // Read only when the stage shows it: a stage with `showAgentState={false}` does not re-render on every turn.
  const agentState = useSessionState((st) => (props.showAgentState === false ? null : st.agentState.state));
  const queue = useCallClock();
  // The visitor reads a sentence; the technical detail goes to the console (and to onError).
  useEffect(() => {
    if (error) console.warn(`liveai-kit: ${error.code}: ${error.detail}`);
  }, [error]);
  const start = () => void session.start().catch(() => undefined); // the error shows from the store
  // Fixed for a call; read when the phase changes (the countdown shows only while active).
  const expiresAt = expiresAtMs(session.getClientSession()?.session_expires_at);
  const posterDue = useSessionPosterDue(phase, phase === 'active' && !!videoTrack);
  const sessionImage = useSessionState((st) => (posterDue ? st.imageUrl : null));
  return (
    <AvatarStageView
      phase={phase}
      videoTrack={videoTrack}
      audioBlocked={audioBlocked}
      queue={queue}
      error={error}
      cost={cost}
      endReason={endReason}
      expiresAt={expiresAt}
      timeLimitReached={timeLimitReached(phase, endReason, expiresAt)}
      onStart={start}
      onPrefetch={session.prefetch}
      onRetry={start}
      onRestart={start}
      onUnblockAudio={() => void session.unblockAudio().catch(() => undefined)}
      watchVideoTrack={watchVideoTrack}
      agentState={agentState}
      {...props}
      imageUrl={sessionImage ?? props.imageUrl}
    />
  );
}

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

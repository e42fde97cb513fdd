import type { AvatarSession } from '../../core/index';
import { isRunning } from '../../core/index';
import { useSessionState } from '../../react/session';
import { Icon } from '../controls/icons';
import { useFirstMessages } from '../i18n/context';
import { onDemand } from '../on-demand';

/**
 * The parts of a running call (controls, chat, connection hint, transcript and captions, "Stop talking"): one chunk,
 * fetched when Start comes into view or is pointed at, and at the latest on the click. Once there, they render in
 * the same pass as the phase that shows them.
 */
export const callUi = onDemand(() => import('./call-ui'));

/** Why a call runs without the microphone: the browser (or the visitor) refused it, or none could be opened. */
export type MicProblem = 'blocked' | 'unavailable' | null;

/**
 * Opens the microphone with the call. Called inside the Start click, so the browser's permission prompt follows the
 * visitor's own gesture; the call starts at the same time (it does not wait for the answer). Once allowed, the
 * probe's track is stopped and the microphone is switched on when the call is live (the session publishes it then);
 * refused or missing, `onProblem` says why and the call goes on without it.
 */
export function openMicWithCall(session: AvatarSession, onProblem: (problem: MicProblem) => void): void {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!media?.getUserMedia) return onProblem('unavailable');
  // A LiveKit agent's room: the wish is recorded before the call joins, so the join records the microphone from its
  // start and hands it to the agent (pre-connect audio).
  if (session.preConnectAudio) void session.setMicEnabled(true).catch(() => onProblem('unavailable'));
  media.getUserMedia({ audio: true }).then(
    (stream) => {
      for (const track of stream.getTracks()) track.stop();
      if (session.preConnectAudio) return;
      whenLive(session, () => {
        if (!session.store.getState().media.micEnabled) void session.setMicEnabled(true).catch(() => onProblem('unavailable'));
      });
    },
    (e: unknown) => {
      const name = (e as { name?: string } | null)?.name;
      onProblem(name === 'NotAllowedError' || name === 'SecurityError' ? 'blocked' : 'unavailable');
    },
  );
}

/** Runs `then` once the session is active; never if the call ends or fails first. */
function whenLive(session: AvatarSession, then: () => void): void {
  const phase = session.store.getState().phase;
  if (phase === 'active') return then();
  if (!isRunning(phase)) return;
  const off = session.store.subscribe((s) => {
    if (s.phase === 'active') {
      off();
      then();
    } else if (!isRunning(s.phase)) off();
  });
}

/**
 * While the avatar is coming, a line over the picture says when the visitor can talk: at once where the agent gets
 * what is said meanwhile (`session.preConnectAudio`, the microphone on: "Listening…"), else once the avatar is live.
 */
export function WaitingNotice({ session }: { session: AvatarSession }) {
  const m = useFirstMessages();
  const waiting = useSessionState((s) => s.phase === 'creating' || s.phase === 'queued' || s.phase === 'connecting');
  const listening = useSessionState((s) => session.preConnectAudio && s.media.micEnabled);
  if (!waiting) return null;
  return (
    <div className="liveai-widget__hint" role="status" data-shown="" data-kind="waiting">
      <Icon name={listening ? 'mic' : 'micOff'} />
      <span className="liveai-widget__hint-text">{listening ? m.listeningWhileWaiting : m.talkOnceLive}</span>
    </div>
  );
}

/** A line over the video while the call runs without the microphone: why, and that typing works. */
export function MicNotice({ problem }: { problem: Exclude<MicProblem, null> }) {
  const m = useFirstMessages();
  return (
    <div className="liveai-widget__hint" role="status" data-shown="" data-kind="mic">
      <Icon name="micOff" />
      <span className="liveai-widget__hint-text">{problem === 'blocked' ? m.micBlocked : m.micUnavailable}</span>
    </div>
  );
}

/** The captions over the video: the latest words while the call is live, gone once it ends. */
export function LiveCaptions({ agentLabel }: { agentLabel: string }) {
  const live = useSessionState((s) => s.phase === 'active');
  const ui = callUi.useModule(live);
  return live && ui ? <ui.TranscriptPanel mode="caption" agentLabel={agentLabel} limit={1} /> : null;
}

/** "Stop talking" over the video while the call is live (it shows itself only while the avatar speaks). */
export function LiveStopTalking() {
  const live = useSessionState((s) => s.phase === 'active');
  const ui = callUi.useModule(live);
  return live && ui ? <ui.StopTalking /> : null;
}

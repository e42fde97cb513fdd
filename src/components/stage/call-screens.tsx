/**
 * What the stage shows once a call is placed: the progress while the avatar starts, "Ending the call…", the ended
 * and error screens, the agent's state label and its announcements, and the time limit's countdown. Its own chunk,
 * with the strings it shows: loaded when the stage's Start button comes into view or is pointed at, and at the
 * latest when a call starts, so a page's first download holds only what shows before the call.
 */
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import type { AgentStateName, EndReason } from '../../core/index';
import { isWaiting } from '../../core/internal';
import { QueueProgressView, useCallClock } from '../controls/QueueProgress';
import { useAudioBands } from '../../react';
import { Icon } from '../controls/icons';
import { explainError, formatCredits } from '../format';
import { formatClock, formatNumber, type Messages } from '../i18n/messages';
import { useMessages } from '../i18n/use-messages';
import { useDeadline } from './clock';
import type { StageOverlayProps } from './AvatarStage';

/** The reasons of an `error` phase that the error screen says in their own words (`endReasons`). */
const ERROR_ENDINGS: ReadonlySet<EndReason> = new Set(['failed', 'timed_out', 'network', 'out_of_credits'] as const);

/** The progress of the nearest session's start, counted from the click on Start (only it re-renders each second). */
function SessionQueue({ phase }: { phase: StageOverlayProps['phase'] }) {
  return <QueueProgressView phase={phase} {...useCallClock()} />;
}

/**
 * Three bars in the agent's state label that follow a voice: the avatar's while it speaks, the visitor's microphone
 * while it listens (so the visitor sees they are heard). Only this re-renders with the level, not the stage.
 */
function AgentMeter({ state }: { state: 'speaking' | 'listening' }) {
  const bands = useAudioBands(state === 'speaking' ? 'avatar' : 'microphone', 3);
  return (
    <span className="liveai-meter" data-live="">
      {[0, 1, 2].map((i) => (
        <i key={i} style={{ '--liveai-level': bands[i] ?? 0 } as CSSProperties} />
      ))}
    </span>
  );
}

/** Overlay content of a placed call by phase: queue progress, ending, ended (with cost), error (with retry). */
function CallOverlay({
  connected,
  phase,
  queue,
  error,
  cost,
  endReason,
  wasLive,
  timeLimitReached,
  onRetry,
  onRestart,
  showCost = false,
}: StageOverlayProps & { connected: boolean }) {
  const m = useMessages();
  if (isWaiting(phase)) {
    if (connected) return <SessionQueue phase={phase} />;
    return <QueueProgressView phase={phase} elapsedMs={0} estimateMs={10_000} progress={0} slow={false} {...queue} />;
  }
  if (phase === 'ending')
    return (
      <p className="liveai-stage__title" role="status">
        {m.endingCall}
      </p>
    );
  if (phase === 'ended') {
    const ended = endReason && (m.endReasons as Partial<Record<EndReason, string>>)[endReason];
    return (
      <div className="liveai-stage__message" role="status" data-tone="ended">
        <p className="liveai-stage__title">{m.callEnded}</p>
        {timeLimitReached ? <p>{m.timeLimitReached}</p> : ended && <p>{ended}</p>}
        {showCost && <p>{cost == null ? m.costPending : m.costUsed(formatCredits(cost, m))}</p>}
        {onRestart && (
          <button type="button" className="liveai-button liveai-button--primary" onClick={onRestart}>
            {m.startAgain}
          </button>
        )}
      </div>
    );
  }
  if (phase === 'error') {
    const e = explainError(error ?? {}, m);
    // An ending the visitor should understand as such (the connection lost, the service gave up, no credits, a live
    // call that failed) is said as that ending; a start that failed keeps the error's own title.
    const said = endReason && ERROR_ENDINGS.has(endReason) && (endReason !== 'failed' || wasLive);
    const reason = said ? (m.endReasons as Partial<Record<EndReason, string>>)[endReason] : undefined;
    return (
      <div className="liveai-stage__message" role="alert" data-tone="error">
        {/* An icon, a sentence and one action (none when retrying cannot help); the technical detail goes to onError
            and the console, not to the visitor. */}
        <p className="liveai-stage__title">
          <span className="liveai-stage__icon">
            <Icon name="alert" />
          </span>
          <span>{reason ?? e.title}</span>
        </p>
        {e.hint && <p>{e.hint}</p>}
        {onRetry && e.retryable && (
          <button type="button" className="liveai-button liveai-button--primary" onClick={onRetry}>
            {m.tryAgain}
          </button>
        )}
      </div>
    );
  }
  return null;
}

/** How long the agent's state must hold before screen readers hear it, ms. */
export const AGENT_STATE_ANNOUNCE_MS = 800;

/**
 * `value` once it has held for `ms`; the same until then. Changes that come back before `ms` pass leave it as it was.
 */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}

/**
 * The polite announcement of the agent's state: "Listening" and "Thinking…" once they hold; nothing while speaking
 * (the voice says it), which also lets the next "Listening" be heard again.
 */
function AgentStateAnnouncer({ state }: { state: AgentStateName | null }) {
  const m = useMessages();
  const settled = useSettled(state === 'listening' || state === 'thinking' ? state : null, AGENT_STATE_ANNOUNCE_MS);
  return (
    <span className="liveai-visually-hidden" role="status" aria-live="polite">
      {settled ? m.agentStates[settled] : ''}
    </span>
  );
}

/** How long before the end the countdown shows, ms. */
export const COUNTDOWN_WINDOW_MS = 30_000;
const noop = () => undefined;

const spoken = (m: Messages, seconds: number) =>
  m.endsInSpoken(formatNumber(seconds, m), new Intl.PluralRules(m.locale).select(seconds), seconds === 30);

/**
 * The session's maximum length running out: "Call ends in 0:27" during the last 30 s before `expiresAt`
 * (epoch ms; the proxy's `session_expires_at`), nothing before. The seconds are shown, not announced; a polite
 * live region says it twice (at 30 s and at 10 s).
 */
export function TimeLimitCountdown({ expiresAt }: { expiresAt: number | null }) {
  const m = useMessages();
  const left = useDeadline(expiresAt, noop, COUNTDOWN_WINDOW_MS);
  const show = left !== null && left > 0 && left <= COUNTDOWN_WINDOW_MS;
  const s = show ? Math.ceil(left / 1000) : 0;
  return (
    <div className="liveai-stage__countdown" data-visible={show || undefined}>
      {show && <span aria-hidden="true">{m.callEndsIn(formatClock(s * 1000, m.locale))}</span>}
      <span className="liveai-visually-hidden" role="status" aria-live="polite">
        {/* What screen readers hear: once when the countdown appears, once at 10 s (not every second). */}
        {show ? spoken(m, s > 10 ? 30 : 10) : ''}
      </span>
    </div>
  );
}

/** What the stage draws of a placed call (see `AvatarStageView`). */
export interface StageCallLayerProps extends StageOverlayProps {
  /**
   * Which of the stage's layers: `over` the video (the agent's state label, then the overlay: progress, ending,
   * ended, error), or `after` the "Turn on sound" button (the time limit's countdown, the agent state's
   * announcements), in the stage's order.
   */
  part: 'over' | 'after';
  /** The agent's state label shows this state (null: none). */
  agentState: AgentStateName | null;
  /** Drawn in the label before its word; default three bars at rest. */
  agentMeter?: ReactNode;
  /** The agent state hint is on (its announcer stays mounted through the call). */
  hint: boolean;
  /** Epoch ms of the session's maximum length, while active (null: no countdown). */
  expiresAt: number | null;
  /**
   * The stage of a session (`AvatarStage`): the progress reads the session's clock itself, and the label's bars follow
   * the voice (unless `agentMeter` is given).
   */
  connected: boolean;
}

/** The stage's layers of a placed call; the stage renders it twice (`part`), so the DOM keeps one order. */
export function StageCallLayer({ part, agentState, agentMeter, hint, expiresAt, connected, ...overlay }: StageCallLayerProps) {
  const m = useMessages();
  if (part === 'after')
    return (
      <>
        {overlay.phase === 'active' && expiresAt != null && <TimeLimitCountdown expiresAt={expiresAt} />}
        {hint && <AgentStateAnnouncer state={agentState} />}
      </>
    );
  const content = CallOverlay({ ...overlay, connected });
  const live = connected && (agentState === 'speaking' || agentState === 'listening') ? <AgentMeter state={agentState} /> : null;
  return (
    <>
      {agentState && agentState !== 'idle' && (
        // Seen at a glance; screen readers get the settled state from the announcer instead.
        <span className="liveai-stage__state" data-state={agentState} aria-hidden="true">
          {agentMeter ?? live ?? (
            <span className="liveai-meter">
              <i />
              <i />
              <i />
            </span>
          )}
          <span>{m.agentStates[agentState]}</span>
        </span>
      )}
      {content && <div className="liveai-stage__overlay">{content}</div>}
    </>
  );
}

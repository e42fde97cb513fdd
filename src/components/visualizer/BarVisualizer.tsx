import type { AgentStateName } from '../../core/index';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { useAgentState, useAudioBands, type AudioLevelSource } from '../../react';

/**
 * Props of {@link BarVisualizerView}.
 * @public
 */
export interface BarVisualizerViewProps {
  /** Height of each bar, 0–1 (low to high frequencies). An empty array draws `count` bars at rest. */
  bands: readonly number[];
  /** Number of bars when `bands` is empty (default 5). */
  count?: number;
  /** The agent's state, as `data-state` for styling (e.g. a pulse while `thinking`). */
  state?: AgentStateName;
  /**
   * Accessible name (default: the catalogue's `avatarAudio`, "Avatar audio"); with `state` it becomes
   * `audioWithState(label, agentStates[state])`, e.g. "Avatar audio: Speaking". The bars themselves are decorative.
   */
  label?: string;
  className?: string;
}

/**
 * Audio bars: one `span` per band whose height follows `--liveai-bar-level` (0–1). Unstyled but themable: colours,
 * sizes and gaps come from CSS variables (`--liveai-bar-color`, `--liveai-bar-width`, `--liveai-bar-gap`,
 * `--liveai-bar-height`, `--liveai-bar-min`). Pure view.
 * @public
 */
export function BarVisualizerView({ bands, count = 5, state, label, className }: BarVisualizerViewProps) {
  const m = useMessages();
  const name = label ?? m.avatarAudio;
  const levels = bands.length ? bands : Array.from({ length: Math.max(1, count) }, () => 0);
  return (
    <div
      className={cx('liveai-bars', className)}
      data-state={state}
      role="img"
      aria-label={state ? m.audioWithState(name, m.agentStates[state]) : name}
    >
      {levels.map((v, i) => (
        <span key={i} className="liveai-bars__bar" style={{ ['--liveai-bar-level' as string]: Math.min(1, Math.max(0, v)).toFixed(2) }} />
      ))}
    </div>
  );
}

/**
 * Props of {@link BarVisualizer}.
 * @public
 */
export interface BarVisualizerProps {
  /** Whose audio: the avatar's (default) or the user's microphone. */
  source?: AudioLevelSource;
  /** Number of bars (default 5). */
  bars?: number;
  /** Accessible name (default: the catalogue's `avatarAudio`, "Avatar audio", or `yourMicrophone`, "Your microphone"). */
  label?: string;
  className?: string;
}

/**
 * Bars that move with the avatar's voice (or the user's microphone) in the nearest session, measured with the Web
 * Audio API on the session's own tracks; `data-state` carries the agent's state. At rest without a track.
 * @public
 */
export function BarVisualizer({ source = 'avatar', bars = 5, label, className }: BarVisualizerProps) {
  const bands = useAudioBands(source, bars);
  const { state } = useAgentState();
  const m = useMessages();
  return (
    <BarVisualizerView
      bands={bands}
      count={bars}
      state={source === 'avatar' ? state : undefined}
      label={label ?? (source === 'avatar' ? m.avatarAudio : m.yourMicrophone)}
      className={className}
    />
  );
}

import { useAgentState, useAudioBands, type AudioLevelSource } from '../../react';
import { BarVisualizerView } from './BarVisualizerView';
import { useMessages } from '../i18n/context';

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

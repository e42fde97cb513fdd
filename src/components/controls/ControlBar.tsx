import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { ControlBarView } from './ControlBarView';
import { isRunning } from '../../core/index';

/**
 * Props of {@link ControlBar}.
 * @public
 */
export interface ControlBarProps {
  /** Controls to leave out. */
  hide?: readonly ('mic' | 'speaker' | 'volume' | 'keepAlive' | 'end')[];
  className?: string;
}

/**
 * Mic, speaker mute and volume, keep-alive and end for the nearest session. The pressed states come from
 * the store (the truth), not from local guesses; the mic toggle is busy (`aria-busy`, disabled) while `micPending`.
 * The keep-alive toggle turns the session's keep-alive on and off
 * (session option `keepAliveMs`: on from the start, and how often at most). End also cancels a call that is still queued.
 * @public
 */
export function ControlBar({ hide = [], className }: ControlBarProps) {
  const session = useAvatarSession();
  // Only the fields shown: the connection and the avatar's tracks changing during connect do not re-render it.
  const m = useSessionState(
    useShallow((s) => ({
      phase: s.phase,
      micEnabled: s.media.micEnabled,
      speakerMuted: s.media.speakerMuted,
      volume: s.media.volume,
      micPending: s.media.micPending,
      keepAlive: s.keepAlive,
    })),
  );
  const phase = m.phase;
  const show = (name: (typeof hide)[number]) => !hide.includes(name);
  return (
    <ControlBarView
      className={className}
      disabled={phase !== 'active'}
      endDisabled={!isRunning(phase)}
      micEnabled={m.micEnabled}
      speakerMuted={m.speakerMuted}
      volume={m.volume}
      keepAlive={m.keepAlive}
      micPending={m.micPending}
      onMicChange={show('mic') ? (on) => void session.setMicEnabled(on).catch(() => undefined) : undefined}
      onSpeakerMutedChange={show('speaker') ? session.setSpeakerMuted : undefined}
      onVolumeChange={show('volume') ? session.setVolume : undefined}
      onKeepAliveChange={show('keepAlive') ? session.setKeepAlive : undefined}
      onEnd={show('end') ? () => void session.end('user').catch(() => undefined) : undefined}
    />
  );
}

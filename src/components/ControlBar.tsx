import { useAvatarSession, useMedia, useSession, useSessionState } from '../react';
import { ControlBarView } from './ControlBarView';
import { isRunning } from '../core/session/phase';

/** Props of {@link ControlBar}. */
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
 */
export function ControlBar({ hide = [], className }: ControlBarProps) {
  const session = useAvatarSession();
  const { phase, endSession } = useSession();
  const m = useMedia();
  const keepAlive = useSessionState((s) => s.keepAlive);
  const show = (name: (typeof hide)[number]) => !hide.includes(name);
  return (
    <ControlBarView
      className={className}
      disabled={phase !== 'active'}
      endDisabled={!isRunning(phase)}
      micEnabled={m.micEnabled}
      speakerMuted={m.speakerMuted}
      volume={m.volume}
      keepAlive={keepAlive}
      micPending={m.micPending}
      onMicChange={show('mic') ? (on) => void m.setMicEnabled(on).catch(() => undefined) : undefined}
      onSpeakerMutedChange={show('speaker') ? m.setSpeakerMuted : undefined}
      onVolumeChange={show('volume') ? m.setVolume : undefined}
      onKeepAliveChange={show('keepAlive') ? session.setKeepAlive : undefined}
      onEnd={show('end') ? () => void endSession('user') : undefined}
    />
  );
}

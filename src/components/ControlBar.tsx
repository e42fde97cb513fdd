import { useEffect, useState } from 'react';
import { useControl, useMedia, useSession } from '../react';
import { ControlBarView } from './ControlBarView';
import { isRunning } from '../core/session/phase';

/** Props of {@link ControlBar}. */
export interface ControlBarProps {
  /** Controls to leave out. */
  hide?: readonly ('mic' | 'speaker' | 'volume' | 'keepAlive' | 'end')[];
  /** Keep-alive on at first (default false). */
  keepAlive?: boolean;
  /** While keep-alive is on, `reset-idle-timeout` is sent this often, ms (default 30000). */
  keepAliveIntervalMs?: number;
  className?: string;
}

/**
 * Mic, speaker mute and volume, keep-alive and end for the nearest session. The pressed states come from
 * the store (the truth), not from local guesses. Keep-alive sends `reset-idle-timeout` at once
 * and then every `keepAliveIntervalMs` while on and active. End also cancels a call that is still queued.
 */
export function ControlBar({ hide = [], keepAlive: initialKeepAlive = false, keepAliveIntervalMs = 30_000, className }: ControlBarProps) {
  const { phase, endSession } = useSession();
  const [micPending, setMicPending] = useState(false);
  const m = useMedia();
  const { resetIdleTimeout } = useControl();
  const [keepAlive, setKeepAlive] = useState(initialKeepAlive);
  const active = phase === 'active';
  useEffect(() => {
    if (!keepAlive || !active) return;
    const ping = () => void resetIdleTimeout().catch(() => undefined);
    ping();
    const id = setInterval(ping, keepAliveIntervalMs);
    return () => clearInterval(id);
  }, [keepAlive, active, keepAliveIntervalMs, resetIdleTimeout]);
  const show = (name: (typeof hide)[number]) => !hide.includes(name);
  return (
    <ControlBarView
      className={className}
      disabled={!active}
      endDisabled={!isRunning(phase)}
      micEnabled={m.micEnabled}
      speakerMuted={m.speakerMuted}
      volume={m.volume}
      keepAlive={keepAlive}
      micPending={micPending}
      onMicChange={
        show('mic')
          ? (on) => {
              setMicPending(true);
              void m.setMicEnabled(on).catch(() => undefined).finally(() => setMicPending(false));
            }
          : undefined
      }
      onSpeakerMutedChange={show('speaker') ? m.setSpeakerMuted : undefined}
      onVolumeChange={show('volume') ? m.setVolume : undefined}
      onKeepAliveChange={show('keepAlive') ? setKeepAlive : undefined}
      onEnd={show('end') ? () => void endSession('user') : undefined}
    />
  );
}

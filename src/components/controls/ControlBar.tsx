import { Icon, type IconName } from './icons';
import { cx } from '../format';
import { useMessages } from '../i18n/use-messages';
import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { isRunning } from '../../core/index';

/**
 * Props of {@link ControlBarView}. A control is shown only when its handler is given.
 * @public
 */
export interface ControlBarViewProps {
  micEnabled: boolean;
  speakerMuted: boolean;
  /** 0..1. */
  volume: number;
  /** Keep-alive is on: `reset-idle-timeout` is sent while the user is active, so idle timeouts do not end the call. */
  keepAlive?: boolean;
  onMicChange?: (enabled: boolean) => void;
  /** The microphone is being switched (the toggle is busy, `aria-disabled`, until it is done; it keeps focus). */
  micPending?: boolean;
  onSpeakerMutedChange?: (muted: boolean) => void;
  onVolumeChange?: (volume: number) => void;
  onKeepAliveChange?: (on: boolean) => void;
  onEnd?: () => void;
  /** True while the call is not active. */
  disabled?: boolean;
  /** Disables End; defaults to `disabled` (set false to allow cancelling a queued call). */
  endDisabled?: boolean;
  className?: string;
}

interface ToggleProps {
  name: string;
  label: string;
  pressed: boolean;
  icon: IconName;
  iconPressed?: IconName;
  disabled: boolean;
  /** The change is under way: busy (`aria-busy`, `aria-disabled`) until done; it keeps focus and ignores clicks. */
  pending?: boolean | undefined;
  /** Tooltip, when it says more than the label. */
  hint?: string;
  onChange: (pressed: boolean) => void;
}

function Toggle({ name, label, pressed, icon, iconPressed = icon, disabled, pending, hint, onChange }: ToggleProps) {
  return (
    <button
      type="button"
      className="liveai-button liveai-button--icon"
      aria-label={label}
      title={hint ?? label}
      aria-pressed={pressed}
      data-control={name}
      data-state={pressed ? 'on' : 'off'}
      disabled={disabled}
      // Not \`disabled\` while pending: a disabled button drops keyboard focus to the page.
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={() => pending || onChange(!pressed)}
    >
      <Icon name={pressed ? iconPressed : icon} />
    </button>
  );
}

/**
 * Call controls: mic, speaker mute + volume, "Stay connected" (keep-alive), end. Buttons carry `aria-pressed` and `data-state`. Pure view.
 * @public
 */
export function ControlBarView(p: ControlBarViewProps) {
  const disabled = p.disabled ?? false;
  const m = useMessages();
  return (
    <div className={cx('liveai-controls', p.className)} role="group" aria-label={m.callControls} data-disabled={disabled || undefined}>
      {p.onMicChange && (
        <Toggle
          name="mic"
          label={m.microphone}
          pressed={p.micEnabled}
          icon="micOff"
          iconPressed="mic"
          disabled={disabled}
          pending={p.micPending}
          onChange={p.onMicChange}
        />
      )}
      {p.onSpeakerMutedChange && (
        <Toggle
          name="speaker"
          label={m.muteSpeaker}
          pressed={p.speakerMuted}
          icon="speaker"
          iconPressed="speakerOff"
          disabled={disabled}
          onChange={p.onSpeakerMutedChange}
        />
      )}
      {p.onVolumeChange && (
        <input
          type="range"
          className="liveai-controls__volume"
          aria-label={m.volume}
          min={0}
          max={1}
          step={0.05}
          value={p.speakerMuted ? 0 : p.volume}
          disabled={disabled}
          onChange={(e) => p.onVolumeChange?.(Number(e.target.value))}
        />
      )}
      {p.onKeepAliveChange && (
        <Toggle
          name="keep-alive"
          label={m.stayConnected}
          hint={m.stayConnectedHint}
          pressed={!!p.keepAlive}
          icon="keepAlive"
          disabled={disabled}
          onChange={p.onKeepAliveChange}
        />
      )}
      {p.onEnd && (
        <button
          type="button"
          className="liveai-button liveai-button--danger"
          data-control="end"
          disabled={p.endDisabled ?? disabled}
          onClick={p.onEnd}
        >
          <Icon name="end" />
          <span>{m.end}</span>
        </button>
      )}
    </div>
  );
}

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

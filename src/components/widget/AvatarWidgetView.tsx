import type { ReactNode } from 'react';
import { isRunning, type Phase } from '../../core/index';
import { Icon } from '../controls/icons';
import { cx, formatClock } from '../format';

/**
 * Visible state of the widget. `hidden` renders nothing.
 * @public
 */
export type WidgetState = 'minimized' | 'active' | 'hidden';

/**
 * Props of {@link AvatarWidgetView}: a layout shell; the parts come in as slots.
 * @public
 */
export interface AvatarWidgetViewProps {
  /** `floating`: a launcher and panel fixed to the corner; `inline`: in the page flow. Default floating. */
  variant?: 'floating' | 'inline';
  state: WidgetState;
  onStateChange?: (state: WidgetState) => void;
  /** Called when the pointer enters or focus reaches the launcher: warm up what starting a call downloads. */
  onPrefetch?: () => void;
  /** `auto` follows `prefers-color-scheme`. Default auto. */
  theme?: 'light' | 'dark' | 'auto';
  phase: Phase;
  title?: string;
  stage: ReactNode;
  transcript?: ReactNode;
  chat?: ReactNode;
  controls?: ReactNode;
  /** Extra panel content (e.g. the image swapper). */
  extra?: ReactNode;
  /** Remaining ms of `maxDurationMs`; a countdown shows in the last 30 s. */
  remainingMs?: number | null;
  /** Remaining ms before a minimized call ends (30 s after minimizing). */
  minimizedEndMs?: number | null;
  className?: string;
}

/**
 * The drop-in widget's frame: launcher when minimized, panel when active, countdowns. Pure view.
 * @public
 */
export function AvatarWidgetView(p: AvatarWidgetViewProps) {
  const { variant = 'floating', state, theme = 'auto', phase, title = 'Avatar' } = p;
  if (state === 'hidden') return null;
  const root = {
    className: cx('liveai-widget', p.className),
    'data-variant': variant,
    'data-state': state,
    'data-theme': theme,
    'data-phase': phase,
  };
  if (state === 'minimized') {
    return (
      <div {...root}>
        <button
          type="button"
          className="liveai-launcher"
          aria-expanded="false"
          onClick={() => p.onStateChange?.('active')}
          onPointerEnter={p.onPrefetch}
          onFocus={p.onPrefetch}
          data-in-call={isRunning(phase) || undefined}
        >
          <Icon name="chat" />
          <span>
            {p.minimizedEndMs != null && isRunning(phase) ? `Call ends in ${formatClock(p.minimizedEndMs)} · Open` : `Talk to ${title}`}
          </span>
        </button>
      </div>
    );
  }
  const showCountdown = p.remainingMs != null && p.remainingMs <= 30_000 && phase === 'active';
  return (
    <div {...root}>
      <section className="liveai-widget__panel" aria-label={title}>
        <header className="liveai-widget__header">
          <h2 className="liveai-widget__title">{title}</h2>
          {phase === 'active' && <span className="liveai-widget__live">Live</span>}
          <button
            type="button"
            className="liveai-button liveai-button--icon liveai-button--ghost"
            aria-label="Minimize"
            aria-expanded="true"
            onClick={() => p.onStateChange?.('minimized')}
          >
            <Icon name="minimize" />
          </button>
        </header>
        {showCountdown && (
          <p className="liveai-widget__countdown" role="timer" aria-label="Time left in this call">
            Call ends in {formatClock(p.remainingMs!)}
          </p>
        )}
        <div className="liveai-widget__body">
          <div className="liveai-widget__main">{p.stage}</div>
          <div className="liveai-widget__side">
            {p.transcript}
            {p.extra}
            {p.chat}
            {p.controls}
          </div>
        </div>
      </section>
    </div>
  );
}

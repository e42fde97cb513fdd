import { useRef, type ReactNode } from 'react';
import { isRunning, type Phase } from '../../core/index';
import { Icon } from '../controls/icons';
import { cx } from '../format';
import { formatClock, formatNumber } from '../i18n/messages';
import { useFocusKeeper } from './useFocusKeeper';
import { useMessages } from '../i18n/context';

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
  /** A line under the header (e.g. the "connection unstable" hint). */
  hint?: ReactNode;
  /** Extra panel content (e.g. the image swapper). */
  extra?: ReactNode;
  /** Remaining ms of `maxDurationMs`; a countdown shows in the last 30 s. */
  remainingMs?: number | null;
  /** Remaining ms before a minimized call ends (30 s after minimizing). */
  minimizedEndMs?: number | null;
  /**
   * How long a call may stay minimized before it is ended, ms: the Minimize button says so during a call (label and
   * tooltip). Null or absent: minimizing keeps the call (the launcher then shows "In call · Open").
   */
  minimizeEndsCallAfterMs?: number | null;
  className?: string;
}

/**
 * The drop-in widget's frame: launcher when minimized, panel when active, countdowns. Pure view.
 * @public
 */
export function AvatarWidgetView(p: AvatarWidgetViewProps) {
  const m = useMessages();
  const { variant = 'floating', state, theme = 'auto', phase, title = m.avatar } = p;
  const ref = useRef<HTMLDivElement>(null);
  useFocusKeeper(ref, phase, state);
  if (state === 'hidden') return null;
  const running = isRunning(phase);
  const root = {
    ref,
    className: cx('liveai-widget', p.className),
    'data-variant': variant,
    'data-state': state,
    'data-theme': theme,
    'data-phase': phase,
    lang: m.locale,
    dir: m.dir,
  };
  if (state === 'minimized') {
    const ending = p.minimizedEndMs != null && running;
    return (
      <div {...root}>
        <button
          type="button"
          className="liveai-launcher"
          aria-expanded="false"
          onClick={() => p.onStateChange?.('active')}
          onPointerEnter={p.onPrefetch}
          onFocus={p.onPrefetch}
          data-in-call={running || undefined}
          data-ending={ending || undefined}
        >
          <Icon name="chat" />
          <span>
            {ending ? m.minimizedEnds(formatClock(p.minimizedEndMs!, m.locale)) : running ? m.inCallWith(title) : m.talkTo(title)}
          </span>
        </button>
      </div>
    );
  }
  const showCountdown = p.remainingMs != null && p.remainingMs <= 30_000 && phase === 'active';
  const endsAfter = running && p.minimizeEndsCallAfterMs != null ? Math.round(p.minimizeEndsCallAfterMs / 1000) : null;
  const minimizeLabel = endsAfter === null ? m.minimize : m.minimizeEndsCall(formatNumber(endsAfter, m));
  return (
    <div {...root}>
      <section className="liveai-widget__panel" aria-label={title}>
        <header className="liveai-widget__header">
          <h2 className="liveai-widget__title" tabIndex={-1}>
            {title}
          </h2>
          {showCountdown ? (
            <p className="liveai-widget__countdown" role="timer" aria-label={m.timeLeft}>
              {m.callEndsIn(formatClock(p.remainingMs!, m.locale))}
            </p>
          ) : (
            phase === 'active' && <span className="liveai-widget__live">{m.live}</span>
          )}
          <button
            type="button"
            className="liveai-button liveai-button--icon liveai-button--ghost"
            aria-label={minimizeLabel}
            title={minimizeLabel}
            aria-expanded="true"
            data-control="minimize"
            data-ends-call={endsAfter !== null || undefined}
            onClick={() => p.onStateChange?.('minimized')}
          >
            <Icon name="minimize" />
          </button>
        </header>
        {p.hint}
        <div className="liveai-widget__body">
          <div className="liveai-widget__main">{p.stage}</div>
          <div className="liveai-widget__side">
            {p.transcript}
            {p.extra}
            {p.chat}
            {p.controls && (
              // Kept in the layout before and after a call (hidden, not removed), so nothing below it moves.
              <div className="liveai-widget__controls" data-hidden={!running || undefined}>
                {p.controls}
              </div>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}

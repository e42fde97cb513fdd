import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { isRunning, type Phase } from '../../core/index';
import { isWaiting } from '../../core/internal';
import { Icon } from '../controls/icons';
import { cx } from '../cx';
import { formatClock, formatNumber } from '../i18n/messages';
import { useFirstMessages } from '../i18n/context';

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
  /** The avatar's picture: shown in the launcher, so the minimized widget shows who is there. */
  imageUrl?: string | null | undefined;
  /** The avatar, filling the panel edge to edge; the header and the call controls float over it. */
  stage: ReactNode;
  transcript?: ReactNode;
  /** The chat field, under the video (give it only while it should show). */
  chat?: ReactNode;
  /** The call controls, floating over the bottom of the video; shown only while a call runs. */
  controls?: ReactNode;
  /** A line over the top of the video, under the header (e.g. the "connection unstable" hint): it moves nothing. */
  hint?: ReactNode;
  /** Extra panel content (e.g. the "Change look" sheet). */
  extra?: ReactNode;
  /** Remaining ms of `maxDurationMs`; a countdown shows in the last 30 s. */
  remainingMs?: number | null;
  /** Remaining ms before a minimized call ends (when the operator set a limit). */
  minimizedEndMs?: number | null;
  /**
   * How long a call may stay minimized before it is ended, ms: the Minimize button says so during a call (label and
   * tooltip). Null or absent: minimizing keeps the call (the launcher then shows "In call · Open").
   */
  minimizeEndsCallAfterMs?: number | null;
  className?: string;
}

/**
 * The drop-in widget's frame: the launcher (the avatar's face and name) when minimized; when open, a panel that is
 * the avatar, with the name and Minimize over its top and the call controls over its bottom, the chat and the
 * conversation under it (or beside it when wide). Escape minimizes the floating panel. Pure view.
 * @public
 */
export function AvatarWidgetView(p: AvatarWidgetViewProps) {
  const m = useFirstMessages();
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
          <span className="liveai-launcher__face" aria-hidden="true">
            {p.imageUrl ? <img src={p.imageUrl} alt="" decoding="async" /> : <Icon name="chat" />}
          </span>
          <span className="liveai-launcher__text">
            {ending ? m.minimizedEnds(formatClock(p.minimizedEndMs!, m.locale)) : running ? m.inCallWith(title) : m.talkTo(title)}
          </span>
        </button>
      </div>
    );
  }
  const showCountdown = p.remainingMs != null && p.remainingMs <= 30_000 && phase === 'active';
  const endsAfter = running && p.minimizeEndsCallAfterMs != null ? Math.round(p.minimizeEndsCallAfterMs / 1000) : null;
  const minimizeLabel = endsAfter === null ? m.minimize : m.minimizeEndsCall(formatNumber(endsAfter, m));
  // Floating without a conversation log, the chat floats over the video too (above the controls): opening it moves
  // nothing. Otherwise it sits under the conversation.
  const chatOver = variant === 'floating' && !p.transcript;
  const side = p.transcript || (!chatOver && p.chat);
  return (
    <div
      {...root}
      data-running={running || undefined}
      data-chat={(chatOver && !!p.chat) || undefined}
      onKeyDown={(e) => {
        // Escape minimizes the floating panel (an open menu or sheet inside handles its own Escape first).
        if (e.key !== 'Escape' || variant !== 'floating' || e.defaultPrevented) return;
        e.preventDefault();
        p.onStateChange?.('minimized');
      }}
    >
      <section className="liveai-widget__panel" aria-label={title}>
        <div className="liveai-widget__body" data-side={side ? '' : undefined}>
          <div className="liveai-widget__main">
            <header className="liveai-widget__header">
              <h2 className="liveai-widget__title" tabIndex={-1}>
                {title}
              </h2>
              {showCountdown && (
                <p className="liveai-widget__countdown" role="timer" aria-label={m.timeLeft}>
                  {m.callEndsIn(formatClock(p.remainingMs!, m.locale))}
                </p>
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
            {p.stage}
            {chatOver && p.chat && <div className="liveai-widget__chat">{p.chat}</div>}
            {p.controls && running && <div className="liveai-widget__controls">{p.controls}</div>}
          </div>
          {side && (
            <div className="liveai-widget__side">
              {p.transcript}
              {!chatOver && p.chat}
            </div>
          )}
          {p.extra}
        </div>
      </section>
    </div>
  );
}

/** Where focus goes in each state, best first: the control that makes sense next. */
function candidates(phase: Phase, state: WidgetState, keyboard: boolean): string[] {
  if (state === 'minimized') return ['.liveai-launcher'];
  // An open "Change look" sheet covers the rest: focus stays in it.
  const sheet = '.liveai-widget__sheet-title';
  // Before a call: Start, or in the pre-join step Join (the microphone select while Join waits for permission).
  if (phase === 'idle') return [sheet, '.liveai-stage__overlay button', '.liveai-prejoin__actions button', '.liveai-prejoin select'];
  // While the avatar starts (or the call ends), the stage: its progress is what there is to read.
  if (isWaiting(phase) || phase === 'ending') return [sheet, '.liveai-stage'];
  // The chat field only for keyboard users: focusing it after a tap would open a phone's on-screen keyboard.
  if (phase === 'active')
    return [sheet, ...(keyboard ? ['.liveai-chat__field:not(:disabled)'] : []), '[data-control="mic"]', '.liveai-stage'];
  // Ended or failed: "Start again" / "Try again".
  return [sheet, '.liveai-stage__overlay button', '.liveai-stage'];
}

const shown = (el: Element): el is HTMLElement =>
  el instanceof HTMLElement && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';

/** Focus that is gone: on nothing, outside the widget, or on a control that was removed, disabled or hidden. */
function lostFocus(root: HTMLElement): boolean {
  const active = (root.getRootNode() as Document | ShadowRoot).activeElement;
  if (!active || !root.contains(active)) return true;
  return (active as HTMLButtonElement).disabled === true || !shown(active);
}

/**
 * Keeps keyboard focus on a sensible control of the widget through its state changes: when the control that had
 * focus goes away (Start once the call starts, End once it ended, Minimize, a control that turns disabled), focus
 * moves to what makes sense now instead of falling to `<body>`: the stage while the avatar starts, the chat field
 * once the call runs (for keyboard users; after a tap, the microphone toggle, so no on-screen keyboard opens),
 * "Start again" / "Try again" after it, the launcher when minimized. It only acts while focus was in the widget (a
 * click or Tab elsewhere on the page turns it off), and, after a key press, it moves focus it placed itself on (the
 * stage) along when the phase changes.
 */
function useFocusKeeper(root: RefObject<HTMLElement | null>, phase: Phase, state: WidgetState): void {
  const inside = useRef(false);
  /** The last input was a key (not a pointer): focus may then move along with the call, to the chat field. */
  const keyboard = useRef(false);
  const placed = useRef<HTMLElement | null>(null);
  const now = useRef({ phase, state });
  now.current = { phase, state };

  const rescue = useRef((moveOn: boolean) => {
    const el = root.current;
    if (!el || !inside.current) return;
    const active = (el.getRootNode() as Document | ShadowRoot).activeElement;
    if (!lostFocus(el) && !(moveOn && keyboard.current && active === placed.current)) return;
    const { phase: p, state: s } = now.current;
    for (const selector of [...candidates(p, s, keyboard.current), '.liveai-widget__title']) {
      const next = el.querySelector(selector);
      if (!next || !shown(next) || (next as HTMLButtonElement).disabled) continue;
      if (next !== active) {
        next.focus();
        placed.current = next;
      }
      return;
    }
  });

  const mounted = state !== 'hidden';
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const onIn = (e: FocusEvent) => {
      inside.current = true;
      if (e.target !== placed.current) placed.current = null;
    };
    const onOut = (e: FocusEvent) => {
      const to = e.relatedTarget as Node | null;
      const from = e.target as HTMLElement;
      if (to && !el.contains(to)) inside.current = false;
      // Focus falling to nothing because its control was removed, disabled or hidden: put it back once the DOM
      // settled. A control still there lost it because the visitor moved on (Tab past the last control, another
      // window): focus is theirs, not pulled back.
      else if (!to)
        setTimeout(() => {
          if (from.isConnected && !(from as HTMLButtonElement).disabled && shown(from)) inside.current = false;
          else rescue.current(false);
        }, 0);
    };
    const onDown = (e: PointerEvent) => {
      keyboard.current = false;
      if (!e.composedPath().includes(el)) inside.current = false;
    };
    const onKey = () => void (keyboard.current = true);
    el.addEventListener('focusin', onIn);
    el.addEventListener('focusout', onOut);
    el.ownerDocument.addEventListener('pointerdown', onDown, true);
    el.ownerDocument.addEventListener('keydown', onKey, true);
    return () => {
      el.ownerDocument.removeEventListener('keydown', onKey, true);
      el.removeEventListener('focusin', onIn);
      el.removeEventListener('focusout', onOut);
      el.ownerDocument.removeEventListener('pointerdown', onDown, true);
    };
  }, [root, mounted]);

  useEffect(() => rescue.current(true), [phase, state]);
}

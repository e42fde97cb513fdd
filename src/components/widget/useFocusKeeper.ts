import { useEffect, useRef, type RefObject } from 'react';
import type { Phase } from '../../core/index';
import { isWaiting } from '../../core/internal';
import type { WidgetState } from './AvatarWidgetView';

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
export function useFocusKeeper(root: RefObject<HTMLElement | null>, phase: Phase, state: WidgetState): void {
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
      if (to && !el.contains(to)) inside.current = false;
      // Focus falling to nothing (its control was removed or disabled): put it back once the DOM settled.
      else if (!to) setTimeout(() => rescue.current(false), 0);
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

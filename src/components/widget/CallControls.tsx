import { useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { isWaiting } from '../../core/internal';
import { useAudioLevel, useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { Icon } from '../controls/icons';
import { useMessages } from '../i18n/use-messages';
import { onDemand } from '../on-demand';

/** The options menu downloads when the visitor first opens it (or points at its button). */
const callMenu = onDemand(() => import('./CallMenu'));
const loadMenu = () => void callMenu.load().catch(() => undefined);

/** What the widget's call controls need from the widget. */
export interface CallControlsProps {
  /** The microphone toggle shows (false for a text-only widget). */
  microphone: boolean;
  /** The chat field shows; absent: no chat toggle (the chat always shows). */
  chatOpen?: boolean | undefined;
  onChatOpenChange?: ((open: boolean) => void) | undefined;
  /** Opens "Change look"; absent: no such menu item. */
  onChangeLook?: (() => void) | undefined;
}

/**
 * The widget's call controls, floating over the bottom of the video: while the call starts only "Cancel"; once live
 * the microphone (its ring follows the visitor's voice), the chat toggle, "More options" (speaker, volume, devices,
 * "Stay connected", "Change look") and End. Every control has a visible tooltip and an accessible name.
 */
export function CallControls({ microphone, chatOpen, onChatOpenChange, onChangeLook }: CallControlsProps) {
  const session = useAvatarSession();
  const m = useMessages();
  const s = useSessionState(useShallow((st) => ({ phase: st.phase, mic: st.media.micEnabled, micPending: st.media.micPending })));
  const waiting = isWaiting(s.phase);
  const end = () => void session.end('user').catch(() => undefined);
  return (
    <div className="liveai-dock" role="group" aria-label={m.callControls}>
      {!waiting && microphone && (
        <button
          type="button"
          className="liveai-dock__button"
          data-control="mic"
          data-state={s.mic ? 'on' : 'off'}
          aria-label={m.microphone}
          title={m.microphone}
          aria-pressed={s.mic}
          aria-disabled={s.micPending || undefined}
          aria-busy={s.micPending || undefined}
          onClick={() => s.micPending || void session.setMicEnabled(!s.mic).catch(() => undefined)}
        >
          {s.mic && <MicLevel />}
          <Icon name={s.mic ? 'mic' : 'micOff'} />
        </button>
      )}
      {!waiting && onChatOpenChange && (
        <button
          type="button"
          className="liveai-dock__button"
          data-control="chat"
          aria-label={m.chat}
          title={m.chat}
          aria-pressed={!!chatOpen}
          onClick={() => onChatOpenChange(!chatOpen)}
        >
          <Icon name="chat" />
        </button>
      )}
      {!waiting && <MoreOptions onChangeLook={onChangeLook} />}
      <button
        type="button"
        className="liveai-dock__button liveai-dock__end"
        data-control="end"
        title={waiting ? m.cancel : m.end}
        onClick={end}
      >
        <Icon name={waiting ? 'close' : 'end'} />
        <span>{waiting ? m.cancel : m.end}</span>
      </button>
    </div>
  );
}

/** A ring around the microphone's icon that grows with the visitor's voice: they see they are heard. */
function MicLevel() {
  const level = useAudioLevel('microphone');
  return <span className="liveai-dock__level" aria-hidden="true" style={{ '--liveai-level': level } as CSSProperties} />;
}

/**
 * "More options": a button that opens a small panel of the less used controls above it. Escape or a click outside
 * closes it and puts focus back on the button.
 */
function MoreOptions({ onChangeLook }: { onChangeLook?: (() => void) | undefined }) {
  const m = useMessages();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  // The panel shows with its rows, once the menu's chunk is there; until then the button names no panel.
  const menu = callMenu.useModule(open);
  const shown = open && menu !== null;
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const path = e.composedPath();
      if (panel.current && !path.includes(panel.current) && button.current && !path.includes(button.current)) setOpen(false);
    };
    const doc = button.current?.ownerDocument ?? document;
    doc.addEventListener('pointerdown', onDown, true);
    return () => doc.removeEventListener('pointerdown', onDown, true);
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  return (
    <div className="liveai-dock__more">
      <button
        ref={button}
        type="button"
        className="liveai-dock__button"
        data-control="more"
        aria-label={m.moreOptions}
        title={m.moreOptions}
        aria-expanded={open}
        aria-controls={shown ? id : undefined}
        onPointerEnter={loadMenu}
        onFocus={loadMenu}
        onClick={() => setOpen(!open)}
      >
        <Icon name="more" />
      </button>
      {/* The panel appears with its rows (the menu's chunk loads on first open): an empty panel that grows upwards
          as they arrive would shift under the visitor's eyes. */}
      {shown && (
        <div
          ref={panel}
          id={id}
          className="liveai-menu"
          role="group"
          aria-label={m.moreOptions}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.stopPropagation();
            close(true);
          }}
        >
          <menu.CallMenu
            onChangeLook={
              onChangeLook &&
              (() => {
                close(false);
                onChangeLook();
              })
            }
          />
        </div>
      )}
    </div>
  );
}

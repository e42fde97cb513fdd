import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Icon } from '../controls/icons';
import { useMessages } from '../i18n/context';

/**
 * "Change look" in the widget: a button that opens the image swapper as a sheet over the transcript and chat (over
 * the whole panel when narrow), so opening it moves nothing and squeezes nothing. Escape or Close shuts it and
 * puts focus back on the button.
 */
export function LookSheet({ children }: { children: ReactNode }) {
  const m = useMessages();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) heading.current?.focus();
    else if (wasOpen.current) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className="liveai-button liveai-widget__look"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen(!open)}
      >
        <Icon name="image" />
        <span>{m.changeLook}</span>
      </button>
      {open && (
        <section
          id={id}
          className="liveai-widget__sheet"
          aria-labelledby={`${id}-title`}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            setOpen(false);
          }}
        >
          <div className="liveai-widget__sheet-header">
            <h3 className="liveai-widget__sheet-title" id={`${id}-title`} ref={heading} tabIndex={-1}>
              {m.changeLook}
            </h3>
            <button
              type="button"
              className="liveai-button liveai-button--icon liveai-button--ghost"
              aria-label={m.close}
              onClick={() => setOpen(false)}
            >
              <Icon name="close" />
            </button>
          </div>
          {children}
        </section>
      )}
    </>
  );
}

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from '../controls/icons';
import { useMessages } from '../i18n/use-messages';

/**
 * "Change look" in the widget, opened from "More options": a sheet over the lower part of the video, so the avatar's
 * face stays in view while its look changes, and the swapper's progress ("Imagining…") shows at the sheet's top.
 * Escape or Close shuts it and puts focus back on "More options".
 */
export function LookSheet({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const m = useMessages();
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) heading.current?.focus();
    else if (wasOpen.current) heading.current?.closest('.liveai-widget')?.querySelector<HTMLElement>('[data-control="more"]')?.focus();
    wasOpen.current = open;
  }, [open]);
  // Kept mounted (hidden) once opened, so the focus can be put back from inside the widget when it closes.
  if (!open && !wasOpen.current) return null;
  return (
    <section
      id={id}
      className="liveai-widget__sheet"
      aria-labelledby={`${id}-title`}
      hidden={!open}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="liveai-widget__sheet-header">
        <h3 className="liveai-widget__sheet-title" id={`${id}-title`} ref={heading} tabIndex={-1}>
          {m.changeLook}
        </h3>
        <button type="button" className="liveai-button liveai-button--icon liveai-button--ghost" aria-label={m.close} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      {children}
    </section>
  );
}

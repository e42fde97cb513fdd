import type { ReactNode } from 'react';

/**
 * The one "let me hear it" button: shown only while `blocked`; its click calls `onUnblock` inside the user gesture
 * (e.g. `session.unblockAudio()`). Used by {@link AvatarAudio} and the styled stage's "Tap to unmute".
 */
export function AudioUnlockButton({
  blocked,
  onUnblock,
  className,
  children,
}: {
  blocked: boolean;
  onUnblock: (() => void) | undefined;
  className?: string | undefined;
  children: ReactNode;
}) {
  if (!blocked) return null;
  return (
    <button type="button" className={className} data-liveai-audio-unlock="" onClick={onUnblock}>
      {children}
    </button>
  );
}

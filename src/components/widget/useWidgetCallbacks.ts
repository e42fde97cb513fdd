import { useEffect, useRef } from 'react';
import type { AvatarSession, EndReason, ImageChangeState, LiveAiError, Phase, TranscriptLine } from '../../core/index';

/**
 * What `onEnd` receives: why, the cost in credits (null when unknown) and the session id.
 * @public
 */
export interface WidgetEndInfo {
  reason: EndReason | null;
  cost: number | null;
  sessionId: string | null;
}

/**
 * Callbacks of the drop-in widget (and the DOM events of `<liveai-avatar>`).
 * @public
 */
export interface WidgetCallbacks {
  onPhaseChange?: (phase: Phase) => void;
  /** Once per new transcript line. */
  onTranscript?: (line: TranscriptLine) => void;
  /** Every error the session reports (fatal ones also move the phase to `error`). */
  onError?: (error: LiveAiError) => void;
  onImageChange?: (image: ImageChangeState) => void;
  onEnd?: (info: WidgetEndInfo) => void;
}

/**
 * Calls the widget callbacks from the session's store and error bus, without re-rendering anything.
 * The latest callbacks are always used, so callers need not memoize them.
 */
export function useWidgetCallbacks(session: AvatarSession, callbacks: WidgetCallbacks): void {
  const cb = useRef(callbacks);
  cb.current = callbacks;
  useEffect(() => {
    const offError = session.onError((e) => cb.current.onError?.(e));
    const offStore = session.store.subscribe((s, prev) => {
      const c = cb.current;
      if (s.phase !== prev.phase) {
        c.onPhaseChange?.(s.phase);
        if (s.phase === 'ended') c.onEnd?.({ reason: s.endReason, cost: s.cost, sessionId: s.sessionId });
      }
      if (s.transcript !== prev.transcript) {
        const last = prev.transcript[prev.transcript.length - 1]?.id ?? 0;
        for (const line of s.transcript) if (line.id > last) c.onTranscript?.(line);
      }
      // A reset at start() replaces the idle object with another idle one: not a change the host cares about.
      if (s.image.status !== prev.image.status || s.image.error !== prev.image.error) c.onImageChange?.(s.image);
    });
    return () => {
      offError();
      offStore();
    };
  }, [session]);
}

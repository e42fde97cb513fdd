import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { EndReason, SessionState } from '../core/index';
import { useAvatarSession } from './useAvatarSession';

const pick = (s: SessionState) => ({
  phase: s.phase,
  sessionId: s.sessionId,
  sessionStatus: s.sessionStatus,
  transport: s.transport,
  cost: s.cost,
  error: s.error,
  endReason: s.endReason,
  botReady: s.botReady,
  live: s.live,
  imageUrl: s.imageUrl,
  startedAt: s.startedAt,
  queuedAt: s.queuedAt,
  activeAt: s.activeAt,
});

export type UseSessionResult = ReturnType<typeof pick> & {
  /**
   * Starts (double clicks share one start). Rejects with the `LiveAiError` that also lands in `error` / `phase`
   * (`insufficient_funds`, `transport_failed`, …; `aborted` when ended meanwhile), so `await start()` can react.
   */
  start: () => Promise<void>;
  /** Ends the session (`terminate`, leave, wait for the final status). Never rejects: failures land in `error`. */
  endSession: (reason?: EndReason) => Promise<void>;
};

/**
 * The session's lifecycle fields and `start` / `endSession`. Re-renders only when one of these fields changes
 * (not on transcript or media updates).
 */
export function useSession(): UseSessionResult {
  const session = useAvatarSession();
  const fields = useStore(session.store, useShallow(pick));
  const actions = useMemo(() => {
    const endSession = (reason?: EndReason) => session.end(reason).catch(() => undefined);
    return { start: () => session.start(), endSession };
  }, [session]);
  return useMemo(() => ({ ...fields, ...actions }), [fields, actions]);
}

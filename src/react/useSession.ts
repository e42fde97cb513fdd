import { useMemo } from 'react';
import type { EndReason, SessionState } from '../core/session/types';
import { useAvatarSession } from './useAvatarSession';
import { shallowEqual, useSessionState } from './useSessionState';

const pick = (s: SessionState) => ({
  phase: s.phase,
  sessionId: s.sessionId,
  sessionStatus: s.sessionStatus,
  transport: s.transport,
  cost: s.cost,
  error: s.error,
  endReason: s.endReason,
  botReady: s.botReady,
  imageUrl: s.imageUrl,
  startedAt: s.startedAt,
  queuedAt: s.queuedAt,
  activeAt: s.activeAt,
});

export type UseSessionResult = ReturnType<typeof pick> & {
  /** Starts (double clicks share one start). Never rejects: failures land in `error` / `phase`. */
  start: () => Promise<void>;
  /** Ends the session. Never rejects: failures land in `error`. */
  end: (reason?: EndReason) => Promise<void>;
};

/**
 * The session's lifecycle fields and `start` / `end`. Re-renders only when one of these fields changes
 * (not on transcript or media updates).
 */
export function useSession(): UseSessionResult {
  const session = useAvatarSession();
  const fields = useSessionState(pick, shallowEqual);
  const actions = useMemo(
    () => ({
      start: () => session.start().catch(() => undefined),
      end: (reason?: EndReason) => session.end(reason).catch(() => undefined),
    }),
    [session],
  );
  return useMemo(() => ({ ...fields, ...actions }), [fields, actions]);
}

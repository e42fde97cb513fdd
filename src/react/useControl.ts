import { useMemo } from 'react';
import type { ImageChangeState, SessionCommands } from '../core/index';
import { useAvatarSession, useSessionState } from './session';

/**
 * What {@link useControl} returns: the session's commands (`sendControl`, `updateImage`, `sendChat`, `leaveMeeting`, …)
 * and `imageChange`, the state of the latest image change.
 * @public
 */
export type UseControlResult = SessionCommands & {
  /** Progress of the last image change: sending → requested → created → complete | error. */
  image: ImageChangeState;
};

/**
 * Control actions of the session (and the chat and end messages over the room), stable across renders, plus the image
 * change state. Each action rejects with `LiveAiError` (validation happens before the network: 400/413 rules).
 * @public
 */
export function useControl(): UseControlResult {
  const session = useAvatarSession();
  const image = useSessionState((s) => s.image);
  const actions = useMemo(
    () => ({
      sendChat: session.sendChat,
      forceEnd: session.forceEnd,
      interrupt: session.interrupt,
      control: session.control,
      updateImage: session.updateImage,
      updateAgentPrompt: session.updateAgentPrompt,
      updateIdlePrompt: session.updateIdlePrompt,
      action: session.action,
      resetIdleTimeout: session.resetIdleTimeout,
      leaveMeeting: session.leaveMeeting,
    }),
    [session],
  );
  return useMemo(() => ({ ...actions, image }), [actions, image]);
}

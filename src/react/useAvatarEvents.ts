import { useEffect, useRef } from 'react';
import type { AvatarEvent, AvatarEventMap, AvatarEventType, LiveAiError } from '../core/index';
import { useAvatarSession } from './session';

/**
 * The handler {@link useAvatarEvents} takes for an event `type`: for one service event type, a function of that
 * event (`AvatarEventMap[T]`, e.g. `{ type: 'agent_transcription', transcription }`); for `'error'`, a function of
 * the `LiveAiError` reported without throwing; for `'*'`, a function of any service event (`AvatarEvent`).
 * @public
 */
export type AvatarEventHandler<T extends AvatarEventType | '*' | 'error'> = T extends AvatarEventType
  ? (event: AvatarEventMap[T]) => void
  : T extends 'error'
    ? (error: LiveAiError) => void
    : (event: AvatarEvent) => void;

/**
 * Subscribes to service events of the session: one `type`, `'*'` for all, or `'error'` for errors
 * reported without throwing (e.g. malformed messages). The latest `handler` is always called, so it need not be
 * memoized; the subscription lives while the component is mounted.
 * @public
 */
export function useAvatarEvents<T extends AvatarEventType | '*' | 'error'>(type: T, handler: AvatarEventHandler<T>): void {
  const session = useAvatarSession();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const on = session.on as (t: string, h: (e: unknown) => void) => () => void;
    return on(type, (e) => (ref.current as (e: unknown) => void)(e));
  }, [session, type]);
}

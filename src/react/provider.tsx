import { useEffect, useRef, useState, type ReactNode } from 'react';
import { type AvatarSession, type AvatarSessionOptions, createAvatarSession } from '../core/index';
import { AvatarSessionContext } from './context';

export interface AvatarSessionProviderProps {
  /** Options of the session this provider creates (read once, on first render). */
  options?: AvatarSessionOptions;
  /** Or a session you created and own (the provider never disposes it). */
  session?: AvatarSession;
  /** End the session the provider created when it unmounts (default true); else it is only disposed. */
  endOnUnmount?: boolean;
  children?: ReactNode;
}

/**
 * Gives its children one avatar session (one store per session, passed by context).
 * Creates the session once from `options` (nothing runs until `start()`), or uses `session`. On unmount the
 * created session is disposed (ended with reason `unmount` unless `endOnUnmount` is false); disposal waits a
 * tick so React StrictMode's mount → unmount → mount keeps the same session alive.
 * @throws Error when neither `options` nor `session` is given.
 */
export function AvatarSessionProvider({ options, session, endOnUnmount = true, children }: AvatarSessionProviderProps) {
  const [owned] = useState(() => {
    if (session) return null;
    if (!options) throw new Error('AvatarSessionProvider needs `options` or `session`');
    return createAvatarSession(options);
  });
  const value = session ?? owned!;
  const disposeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!owned) return;
    clearTimeout(disposeTimer.current);
    return () => {
      disposeTimer.current = setTimeout(() => owned.dispose({ end: endOnUnmount }), 0);
    };
  }, [owned, endOnUnmount]);

  return <AvatarSessionContext.Provider value={value}>{children}</AvatarSessionContext.Provider>;
}

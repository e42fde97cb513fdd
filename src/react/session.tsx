// The session in React: the provider that gives a subtree one avatar session, and the hooks that read it.
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import {
  type AvatarSession,
  type AvatarSessionOptions,
  type EndReason,
  type SessionState,
  type TransportRegistry,
  createAvatarSession,
} from '../core/index';
import { preloadEngine } from '../core/internal';

/**
 * The session of the nearest `AvatarSessionProvider` (null outside one).
 * @public
 */
export const AvatarSessionContext = createContext<AvatarSession | null>(null);
AvatarSessionContext.displayName = 'AvatarSessionContext';

/**
 * Props of {@link AvatarSessionProvider}: give `options` (the provider creates and owns the session) or `session`
 * (yours).
 * @public
 */
export interface AvatarSessionProviderProps {
  /** Options of the session this provider creates (read once, on first render). */
  options?: AvatarSessionOptions;
  /** Or a session you created and own (the provider never disposes it). */
  session?: AvatarSession;
  /** End the session the provider created when it unmounts (default true); else it is only disposed. */
  endOnUnmount?: boolean;
  /**
   * The transports the session it creates may join (its `transports` option; see `createTransportRegistry`), e.g. a
   * registry of its own in a test or a story, apart from the page's. Read once, on first render.
   * @beta
   */
  transports?: TransportRegistry;
  children?: ReactNode;
}

/**
 * Gives its children one avatar session (one store per session, passed by context).
 * Creates the session once from `options` (nothing runs until `start()`), or uses `session`; once mounted it loads
 * the session's engine (code a start needs), so a Start click does not wait for it. On unmount the
 * created session is disposed (ended with reason `unmount` unless `endOnUnmount` is false); disposal waits a
 * tick so React StrictMode's mount → unmount → mount keeps the same session alive.
 * @throws Error when neither `options` nor `session` is given.
 * @public
 */
export function AvatarSessionProvider({ options, session, endOnUnmount = true, transports, children }: AvatarSessionProviderProps) {
  const [owned] = useState(() => {
    if (session) return null;
    if (!options) throw new Error('AvatarSessionProvider needs `options` or `session`');
    return createAvatarSession(transports ? { ...options, transports } : options);
  });
  const value = session ?? owned!;
  const disposeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The session's engine loads once the first paint is done, so it is in before a Start click.
  useEffect(() => {
    void preloadEngine(value);
  }, [value]);

  useEffect(() => {
    if (!owned) return;
    clearTimeout(disposeTimer.current);
    return () => {
      disposeTimer.current = setTimeout(() => owned.dispose({ end: endOnUnmount }), 0);
    };
  }, [owned, endOnUnmount]);

  return <AvatarSessionContext.Provider value={value}>{children}</AvatarSessionContext.Provider>;
}

/**
 * The session of the nearest `AvatarSessionProvider`.
 * @throws Error with a clear message when used outside a provider.
 * @public
 */
export function useAvatarSession(): AvatarSession {
  const session = useContext(AvatarSessionContext);
  if (!session) {
    throw new Error('useAvatarSession: no <AvatarSessionProvider> around this component');
  }
  return session;
}

/**
 * Reads a slice of the nearest session's store with zustand's `useStore`: the component re-renders only when
 * the selected value changes (`Object.is`), so one event re-renders only its readers. For an object built in the
 * selector, wrap the selector in zustand's `useShallow`. SSR-safe. Used by the components; apps read a slice with
 * `useStore(useAvatarSession().store, selector)` or one of the public hooks.
 * @internal
 */
export function useSessionState<T>(selector: (state: SessionState) => T): T {
  return useStore(useAvatarSession().store, selector);
}

/** The fields of the session state that `useSession` returns. */
type LifecycleKey =
  | 'phase'
  | 'sessionId'
  | 'sessionStatus'
  | 'transport'
  | 'cost'
  | 'error'
  | 'endReason'
  | 'live'
  | 'imageUrl'
  | 'startedAt'
  | 'queuedAt'
  | 'activeAt';
const LIFECYCLE: readonly LifecycleKey[] = [
  'phase',
  'sessionId',
  'sessionStatus',
  'transport',
  'cost',
  'error',
  'endReason',
  'live',
  'imageUrl',
  'startedAt',
  'queuedAt',
  'activeAt',
];

/**
 * The session state's lifecycle fields (phase, session status, error, cost, times in ms since the epoch), one variant
 * per phase as in {@link SessionState}: checking `phase` narrows the others.
 * @public
 */
export type SessionLifecycle = SessionState extends infer S
  ? S extends SessionState
    ? Pick<
        S,
        | 'phase'
        | 'sessionId'
        | 'sessionStatus'
        | 'transport'
        | 'cost'
        | 'error'
        | 'endReason'
        | 'live'
        | 'imageUrl'
        | 'startedAt'
        | 'queuedAt'
        | 'activeAt'
      >
    : never
  : never;

const pick = (s: SessionState): SessionLifecycle => {
  const out: Record<string, unknown> = {};
  for (const k of LIFECYCLE) out[k] = s[k];
  return out as SessionLifecycle;
};

/**
 * What {@link useSession} returns: the lifecycle fields (one variant per phase, so `if (r.phase === 'active')`
 * narrows `r.sessionId` to a string) with `start()` and `endSession()`.
 * @public
 */
export type UseSessionResult = SessionLifecycle & {
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
 * @public
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

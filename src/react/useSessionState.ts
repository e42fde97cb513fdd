import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { SessionState } from '../core/session/types';
import { useAvatarSession } from './useAvatarSession';

/** Compares two values one level deep (objects by own keys, arrays by items, with `Object.is`). */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a) as (keyof T)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && Object.is(a[k], b[k]));
}

/**
 * Reads a slice of the session store. The component re-renders only when the selected value changes
 * (`equalityFn`, default `Object.is`; pass `shallowEqual` for objects built in the selector), so one event
 * re-renders only its readers. SSR-safe (server snapshot = client snapshot).
 */
export function useSessionState<T>(selector: (state: SessionState) => T, equalityFn: (a: T, b: T) => boolean = Object.is): T {
  const { store } = useAvatarSession();
  const latest = useRef({ selector, equalityFn });
  latest.current = { selector, equalityFn };
  const cache = useRef<{ state: SessionState; selector: unknown; value: T } | null>(null);

  const getSnapshot = useCallback(() => {
    const state = store.getState();
    const { selector: sel, equalityFn: eq } = latest.current;
    const c = cache.current;
    if (c && c.state === state && c.selector === sel) return c.value;
    const next = sel(state);
    const value = c && eq(c.value, next) ? c.value : next;
    cache.current = { state, selector: sel, value };
    return value;
  }, [store]);

  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}

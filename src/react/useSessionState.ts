import { useRef } from 'react';
import { useStore } from 'zustand';
import type { SessionState } from '../core/session/types';
import { useAvatarSession } from './useAvatarSession';

/**
 * Compares two values one level deep (objects by own keys, arrays by items, with `Object.is`).
 * @deprecated build objects in a selector wrapped in zustand's `useShallow` instead; removed in the next major.
 */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a) as (keyof T)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && Object.is(a[k], b[k]));
}

/**
 * Reads a slice of the nearest session's store with zustand's `useStore`: the component re-renders only when
 * the selected value changes (`Object.is`, or `equalityFn`), so one event re-renders only its readers. For an
 * object built in the selector, wrap the selector in zustand's `useShallow`. SSR-safe.
 */
export function useSessionState<T>(selector: (state: SessionState) => T, equalityFn?: (a: T, b: T) => boolean): T {
  const { store } = useAvatarSession();
  const last = useRef<{ value: T } | null>(null);
  return useStore(store, (state) => {
    const next = selector(state);
    if (!equalityFn) return next;
    if (last.current && equalityFn(last.current.value, next)) return last.current.value;
    last.current = { value: next };
    return next;
  });
}

import { useStore } from 'zustand';
import type { SessionState } from '../core/index';
import { useAvatarSession } from './useAvatarSession';

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

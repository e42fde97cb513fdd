import { useCallback, useSyncExternalStore } from 'react';
import type { AvatarSession } from '../../core/index';

/**
 * The avatar's current look, per session: the picture a look change was made from, once the service reported it
 * applied (`image_change_complete`). The stage shows it as the poster (the ended screen, a call without video), so
 * after "Change look" the visitor does not see the original face come back. A new call starts from the agent's own
 * look again, and so does this record. What follows the changes (`offerLook`) loads with "Change look"; a widget
 * whose look never changed only reads an empty record.
 */
export interface LookRecord {
  /** The picture of the change on its way (offered, not yet complete). */
  pending: string | null;
  /** The picture of the last change that completed in this call. */
  current: string | null;
  listeners: Set<() => void>;
  /** Whether the session's store is followed (from the first offered change on). */
  watched: boolean;
}

const looks = new WeakMap<AvatarSession, LookRecord>();
const NONE: LookRecord = { pending: null, current: null, listeners: new Set(), watched: false };

/** The session's record (made empty on first use). */
export function lookOf(session: AvatarSession): LookRecord {
  let r = looks.get(session);
  if (!r) looks.set(session, (r = { pending: null, current: null, listeners: new Set(), watched: false }));
  return r;
}

/** The picture of the avatar's current look in this call (after a completed "Change look"), or null: its own look. */
export function useCurrentLook(session: AvatarSession): string | null {
  const subscribe = useCallback(
    (listener: () => void) => {
      const r = lookOf(session);
      r.listeners.add(listener);
      return () => void r.listeners.delete(listener);
    },
    [session],
  );
  return useSyncExternalStore(
    subscribe,
    () => (looks.get(session) ?? NONE).current,
    () => null,
  );
}

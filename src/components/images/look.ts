import { useCallback, useSyncExternalStore } from 'react';
import type { AvatarSession, ImageInput } from '../../core/index';

/**
 * The avatar's current look, per session: the picture a look change was made from, once the service reported it
 * applied (`image_change_complete`). The stage shows it as the poster (the ended screen, a call without video), so
 * after "Change look" the visitor does not see the original face come back. A new call starts from the agent's own
 * look again, and so does this record.
 */
interface LookRecord {
  /** The picture of the change on its way (offered, not yet complete). */
  pending: string | null;
  /** The picture of the last change that completed in this call. */
  current: string | null;
  listeners: Set<() => void>;
}

const looks = new WeakMap<AvatarSession, LookRecord>();
const NONE: LookRecord = { pending: null, current: null, listeners: new Set() };

/** Object URLs this module made (revoked once no longer shown). */
const owned = new Set<string>();
const release = (src: string | null) => {
  if (src && owned.delete(src)) URL.revokeObjectURL?.(src);
};

/** What an `<img>` can show of an image input: the URL itself, an object URL of a blob, a data URL of base64. */
function pictureOf(input: ImageInput): string | null {
  if ('url' in input) return input.url;
  if ('base64' in input) return input.base64.startsWith('data:') ? input.base64 : `data:image/jpeg;base64,${input.base64}`;
  if (typeof URL.createObjectURL !== 'function') return null;
  const src = URL.createObjectURL(input.blob);
  owned.add(src);
  return src;
}

function recordOf(session: AvatarSession): LookRecord {
  const known = looks.get(session);
  if (known) return known;
  const r: LookRecord = { pending: null, current: null, listeners: new Set() };
  looks.set(session, r);
  const notify = () => r.listeners.forEach((listener) => listener());
  session.store.subscribe((s, prev) => {
    if (s.phase === 'creating' && prev.phase !== 'creating') {
      // A new call: the agent's own look again.
      release(r.pending);
      release(r.current);
      r.pending = r.current = null;
      return notify();
    }
    if (s.image.status === prev.image.status) return;
    if (s.image.status === 'complete' && r.pending) {
      release(r.current);
      r.current = r.pending;
      r.pending = null;
      notify();
    } else if (s.image.status === 'error') {
      release(r.pending);
      r.pending = null;
    }
  });
  return r;
}

/**
 * Says which picture a look change was just asked with (call it with the same input given to `updateImage`), so
 * that once the service reports the change complete, {@link useCurrentLook} returns it.
 */
export function offerLook(session: AvatarSession, input: ImageInput): void {
  const r = recordOf(session);
  release(r.pending);
  r.pending = pictureOf(input);
}

/** The picture of the avatar's current look in this call (after a completed "Change look"), or null: its own look. */
export function useCurrentLook(session: AvatarSession): string | null {
  const subscribe = useCallback(
    (listener: () => void) => {
      const r = recordOf(session);
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

import type { AvatarSession, ImageInput } from '../../core/index';
import { lookOf, type LookRecord } from './look';

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

/** Follows the session's store: a completed change becomes the current look, a new call the agent's own again. */
function watch(session: AvatarSession, r: LookRecord): void {
  r.watched = true;
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
}

/**
 * Says which picture a look change was just asked with (call it with the same input given to `updateImage`), so
 * that once the service reports the change complete, `useCurrentLook` returns it.
 */
export function offerLook(session: AvatarSession, input: ImageInput): void {
  const r = lookOf(session);
  if (!r.watched) watch(session, r);
  release(r.pending);
  r.pending = pictureOf(input);
}

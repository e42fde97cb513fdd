import type { EmulatorContext } from './context';
import type { LoggedEvent, SessionRecord } from './store';

const publishChains = new WeakMap<SessionRecord, Promise<void>>();

/**
 * Emits a service event for a session: always appended to the in-memory log
 * (`GET /__emulator/sessions/{id}/events`), and published by the media avatar when one is in the room
 * (to `to` identities only, when given). Publishes of one session go out in order.
 */
export function emitEvent(ctx: EmulatorContext, rec: SessionRecord, event: LoggedEvent['event'], to?: string[]): void {
  rec.events.push({ at: new Date().toISOString(), to: to ?? null, event });
  const media = rec.media;
  if (!media) return;
  const prev = publishChains.get(rec) ?? Promise.resolve();
  const next = prev.then(() =>
    media.publishEvent(event, to).catch((e: unknown) => {
      ctx.options.logger.warn({ session_id: rec.id, type: event.type, err: String(e) }, 'publishing an event failed');
    }),
  );
  publishChains.set(rec, next);
}

/** Resolves once every event published so far for `rec` has been handed to the media avatar. */
export const flushEvents = (rec: SessionRecord): Promise<void> => publishChains.get(rec) ?? Promise.resolve();

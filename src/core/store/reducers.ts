import type { AvatarEvent } from '../schemas';
import type { ImageChangeState, SessionState, TranscriptLine } from '../session/types';

/**
 * Default number of transcript lines kept per session.
 * @public
 */
export const DEFAULT_MAX_TRANSCRIPT_LINES = 200;

/** Appends one line and keeps only the newest `max` lines (arrival order). Pure. */
export function appendTranscript(lines: TranscriptLine[], line: TranscriptLine, max = DEFAULT_MAX_TRANSCRIPT_LINES): TranscriptLine[] {
  const keep = Math.max(1, Math.floor(max));
  const next = lines.length >= keep ? lines.slice(lines.length - keep + 1) : lines.slice();
  next.push(line);
  return next;
}

const IMAGE_RANK: Record<ImageChangeState['status'], number> = { idle: 0, sending: 1, requested: 2, created: 3, complete: 4, error: 4 };

/** Next image-change state for an `image_change_*` event; never moves backwards within one change. Pure. */
export function imageStateFor(current: ImageChangeState, event: AvatarEvent): ImageChangeState | null {
  const to = (status: ImageChangeState['status'], error?: string): ImageChangeState | null => {
    // A new change may start after a finished one; otherwise keep the order requested → created → complete.
    const finished = current.status === 'complete' || current.status === 'error' || current.status === 'idle';
    if (!finished && IMAGE_RANK[status] < IMAGE_RANK[current.status]) return null;
    return error === undefined ? { status } : { status, error };
  };
  switch (event.type) {
    case 'image_change_requested':
      return to('requested');
    case 'image_created':
      return current.status === 'complete' ? null : to('created');
    case 'image_change_complete':
      return { status: 'complete' };
    case 'image_change_error':
      return { status: 'error', error: describeError(event.error) };
    default:
      return null;
  }
}

/** Readable text of an event's free-form `error` field. */
export function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const o = error as Record<string, unknown>;
    for (const k of ['message', 'detail', 'msg', 'error']) if (typeof o[k] === 'string') return o[k] as string;
    try {
      return JSON.stringify(error);
    } catch {
      return 'unknown error';
    }
  }
  return error === undefined || error === null ? 'unknown error' : String(error);
}

/**
 * The store change for one service event (pure): transcript, bot readiness, image change state, `lastEvent`.
 * Ending effects (`idle_timeout`, fatal `daily_error`) and the avatar being live are handled by the session.
 * @param nextId id of the transcript line this event would add.
 */
export function reduceEvent(
  state: SessionState,
  event: AvatarEvent,
  opts: { now: number; nextId: number; maxTranscriptLines?: number },
): Partial<SessionState> {
  const patch: Partial<SessionState> = { lastEvent: event };
  switch (event.type) {
    case 'bot_ready':
      patch.botReady = true;
      break;
    case 'user_transcription':
    case 'agent_transcription': {
      const role = event.type === 'user_transcription' ? 'user' : 'agent';
      const line: TranscriptLine = { id: opts.nextId, role, text: event.transcription, at: opts.now };
      patch.transcript = appendTranscript(state.transcript, line, opts.maxTranscriptLines);
      break;
    }
    default: {
      const image = imageStateFor(state.image, event);
      if (image && (image.status !== state.image.status || image.error !== state.image.error)) patch.image = image;
    }
  }
  return patch;
}

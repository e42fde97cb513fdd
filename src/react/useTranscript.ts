import { useMemo } from 'react';
import type { TranscriptLine } from '../core/index';
import { useSessionState } from './session';

/**
 * The transcript (user and agent lines in arrival order, `*_transcription`), at most the newest `limit`
 * lines when given. Re-renders only when a line arrives or changes.
 *
 * With `paced: true`, the lines as the visitor hears them: an agent line shows only once the avatar starts saying
 * it, and its `spoken` holds the part said so far (whole words; show `spoken ?? text`), so captions keep in step
 * with the voice. It re-renders word by word while the avatar speaks. Lines keep their whole `text` (for a screen
 * reader, which should get the line once, not word by word).
 * @public
 */
export function useTranscript({ limit, paced = false }: { limit?: number; paced?: boolean } = {}): TranscriptLine[] {
  const lines = useSessionState((s) => s.transcript);
  return useMemo(() => {
    const shown = paced ? lines.filter((l) => l.spoken !== '') : lines;
    return limit !== undefined && limit >= 0 && shown.length > limit ? shown.slice(shown.length - limit) : shown;
  }, [lines, limit, paced]);
}

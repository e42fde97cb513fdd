import { useMemo } from 'react';
import type { TranscriptLine } from '../core/index';
import { useSessionState } from './session';

/**
 * The transcript (user and agent lines in arrival order, `*_transcription`), at most the newest `limit`
 * lines when given. Re-renders only when a line arrives.
 * @public
 */
export function useTranscript({ limit }: { limit?: number } = {}): TranscriptLine[] {
  const lines = useSessionState((s) => s.transcript);
  return useMemo(
    () => (limit !== undefined && limit >= 0 && lines.length > limit ? lines.slice(lines.length - limit) : lines),
    [lines, limit],
  );
}

/**
 * Loaders of the chunks the engine needs only once a session starts (nothing heavy before
 * the first click). Each `import()` runs once; a failed load is retried on the next call.
 */
import type { TranscriptMerger } from './session/transcript-merge';

type Validation = typeof import('./validation');

let validation: Promise<Validation> | undefined;

/** The zod schemas and validators (`liveai-kit/schemas`), loaded on first use. */
export function loadValidation(): Promise<Validation> {
  validation ??= import('./validation').catch((e: unknown) => {
    validation = undefined;
    throw e;
  });
  return validation;
}

/**
 * The transcript merger of one session, loaded when the session starts rather than in the first load (a room
 * delivers transcripts only after it joined). `get()` is null until `load()` has resolved.
 */
export function lazyTranscriptMerger(nextId: () => number, maxLines: number) {
  let merger: TranscriptMerger | null = null;
  let loading: Promise<TranscriptMerger> | undefined;
  return {
    get: () => merger,
    load: (): Promise<TranscriptMerger> =>
      (loading ??= import('./session/transcript-merge').then(
        (m) => (merger ??= new m.TranscriptMerger(nextId, maxLines)),
        (e: unknown) => {
          loading = undefined;
          throw e;
        },
      )),
  };
}

/**
 * Loaders of the chunks the engine needs only once a session starts (nothing heavy before
 * the first click). Each `import()` runs once; a failed load is retried on the next call.
 */
import type * as z from 'zod/mini';
import type { Guard } from './schemas/guards';

type Guards = typeof import('./schemas/guards');
import type { TranscriptMerger } from './session/transcript-merge';
import type { TranscriptLine } from './session/types';

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

let guards: Promise<Guards> | undefined;

/**
 * The small zod-free checks of what a call receives, loaded when a session starts (or is prefetched), in parallel
 * with the create call.
 */
export function loadGuards(): Promise<Guards> {
  guards ??= import('./schemas/guards').catch((e: unknown) => {
    guards = undefined;
    throw e;
  });
  return guards;
}

/** The outcome of `check`, shaped like zod's `safeParse` result. */
export type Checked<T> = { success: true; data: T } | { success: false; error: z.core.$ZodError };

/**
 * Checks `value` with its fast guard (picked out of the guards chunk); only when the guard rejects it are the zod
 * schemas loaded, and zod's verdict is final: its error, or its output when it accepts after all.
 */
export async function check<T>(
  value: unknown,
  guard: (g: Guards) => Guard<T>,
  schema: (v: Validation) => z.ZodMiniType<T>,
): Promise<Checked<T>> {
  const data = guard(await loadGuards())(value);
  if (data !== undefined) return { success: true, data };
  return schema(await loadValidation()).safeParse(value) as Checked<T>;
}

/**
 * The transcript merger of one session, loaded when the room first delivers a transcription of its own (LiveKit
 * Agents' `lk.transcription`), not in the first load nor on every call: until then the service's transcript events
 * are lines of their own, and the merger takes the lines it finds (`lines()`) as the service's. `get()` is null
 * until `load()` has resolved.
 */
export function lazyTranscriptMerger(nextId: () => number, maxLines: number, lines: () => readonly TranscriptLine[]) {
  let merger: TranscriptMerger | null = null;
  let loading: Promise<TranscriptMerger> | undefined;
  return {
    get: () => merger,
    load: (): Promise<TranscriptMerger> =>
      (loading ??= import('./session/transcript-merge').then(
        (m) => (merger ??= new m.TranscriptMerger(nextId, maxLines).adopt(lines())),
        (e: unknown) => {
          loading = undefined;
          throw e;
        },
      )),
  };
}

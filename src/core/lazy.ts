/**
 * Loaders of the chunks a session needs only once a session starts (nothing heavy before
 * the first click). Each `import()` runs once; a failed load is retried on the next call.
 */
import type * as z from 'zod/mini';
import type { Guard } from './schemas/guards';

type Guards = typeof import('./schemas/guards');
import type { TranscriptMerger } from './session/transcript-merge';
import type { TranscriptLine } from './session/types';

type Validation = typeof import('./validation');

/**
 * `load` run once: later calls get the same promise. A rejected load (a chunk that failed to download) is forgotten,
 * so the next call tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      throw e;
    }));
}

/** The zod schemas and validators (`liveai-kit/schemas`), loaded on first use. */
export const loadValidation: () => Promise<Validation> = /* @__PURE__ */ loadOnce(() => import('./validation'));

/**
 * The small zod-free checks of what a call receives, loaded when a session starts (or is prefetched), in parallel
 * with the create call.
 */
export const loadGuards: () => Promise<Guards> = /* @__PURE__ */ loadOnce(() => import('./schemas/guards'));

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
  return {
    get: () => merger,
    load: loadOnce(() =>
      import('./session/transcript-merge').then((m) => (merger ??= new m.TranscriptMerger(nextId, maxLines).adopt(lines()))),
    ),
  };
}

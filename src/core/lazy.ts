/**
 * Loaders of the chunks a session needs only once a session starts (nothing heavy before
 * the first click). Each `import()` runs once; a failed load is retried on the next call.
 */
import type * as v from 'valibot';
import type { TranscriptMerger } from './session/transcript-merge';
import type { TranscriptLine } from './session/types';

type Validation = typeof import('./validation');
type CallSchemas = typeof import('./schemas/call-path');

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

/** The schemas and validators (`liveai-kit/schemas`), loaded on first use. */
export const loadValidation: () => Promise<Validation> = /* @__PURE__ */ loadOnce(() => import('./validation'));

/**
 * The schemas of what a call receives, with valibot's `safeParse`, loaded when a session starts (or is prefetched), in
 * parallel with the create call.
 */
export const loadCallSchemas: () => Promise<CallSchemas> = /* @__PURE__ */ loadOnce(() => import('./schemas/call-path'));

/** The proxy client, loaded on first use by what needs it apart from a session (the session list hook). */
export const loadProxyClient: () => Promise<typeof import('./proxy-client')> = /* @__PURE__ */ loadOnce(() => import('./proxy-client'));

/** The outcome of `check`: valibot's `safeParse` result (`output` when `success`, else `issues`). */
export type Checked<S extends v.GenericSchema> = v.SafeParseResult<S>;

/**
 * Checks `value` with one schema: a call-path schema picked out of the small call-path chunk, or, with `all`, any
 * schema of `liveai-kit/schemas` (that chunk is then loaded too).
 */
export async function check<S extends v.GenericSchema>(value: unknown, pick: (s: CallSchemas) => S): Promise<Checked<S>>;
export async function check<S extends v.GenericSchema>(value: unknown, pick: (s: Validation) => S, all: 'all'): Promise<Checked<S>>;
export async function check<S extends v.GenericSchema>(
  value: unknown,
  pick: (s: CallSchemas & Validation) => S,
  all?: 'all',
): Promise<Checked<S>> {
  const [call, schemas] = await Promise.all([loadCallSchemas(), all ? loadValidation() : undefined]);
  return call.safeParse(pick({ ...call, ...schemas } as CallSchemas & Validation), value);
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

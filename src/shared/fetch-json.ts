/** Why a request got no answer: the caller aborted it, it ran past its time limit, or the network failed. */
export type FetchFailure = 'aborted' | 'timeout' | 'network';

/** An answer of any status, its body read as text and, when it is JSON, parsed. */
export interface FetchedJson {
  status: number;
  ok: boolean;
  statusText: string;
  text: string;
  /** The parsed body; undefined when it was empty or not JSON (see `isJson`). */
  body: unknown;
  isJson: boolean;
}

/** Options of {@link fetchJson}. */
export interface FetchJsonOptions {
  /** Fetch implementation (default `globalThis.fetch`, looked up at call time). */
  fetch?: typeof fetch | undefined;
  /** Time limit of the request, body included, in ms. */
  timeoutMs: number;
  /** The caller's signal; aborting it fails the request with `aborted`. */
  signal?: AbortSignal | undefined;
  /** Builds the error thrown when there is no answer. */
  fail: (why: FetchFailure, cause: unknown) => Error;
}

/**
 * One HTTP request with a time limit that covers the body, the caller's abort signal, and JSON parsing that
 * never throws. Resolves for every HTTP status; rejects only with `fail(why, cause)` when there is no answer.
 */
export async function fetchJson(url: string, init: RequestInit, o: FetchJsonOptions): Promise<FetchedJson> {
  if (o.signal?.aborted) throw o.fail('aborted', o.signal.reason);
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  o.signal?.addEventListener('abort', onAbort);
  const timer = setTimeout(() => ctl.abort(), o.timeoutMs);
  try {
    const res = await (o.fetch ?? globalThis.fetch)(url, { ...init, signal: ctl.signal });
    const text = await res.text();
    const parsed = parseJson(text);
    return { status: res.status, ok: res.ok, statusText: res.statusText, text, ...parsed };
  } catch (cause) {
    if (o.signal?.aborted) throw o.fail('aborted', cause);
    throw o.fail(ctl.signal.aborted ? 'timeout' : 'network', cause);
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/** `text` parsed as JSON when it is JSON; never throws. */
export function parseJson(text: string): { body: unknown; isJson: boolean } {
  if (!text) return { body: undefined, isJson: false };
  try {
    return { body: JSON.parse(text) as unknown, isJson: true };
  } catch {
    return { body: undefined, isJson: false };
  }
}

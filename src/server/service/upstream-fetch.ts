import type * as Undici from 'undici';
import { fetchJson, parseJson, type FetchJsonOptions, type FetchedJson } from '../../shared/fetch-json';
import { nodeRequire } from '../peers';

/** Idle keep-alive sockets to the service are closed after this many ms (the service may hint shorter). */
const KEEP_ALIVE_MS = 10_000;

/**
 * Largest answer the proxy reads from the service, in bytes (1 MiB; the service's JSON answers are a few kB). A
 * longer one is dropped while it streams, never buffered whole, and the browser gets 502 `{detail}`.
 */
export const MAX_UPSTREAM_ANSWER_BYTES = 1024 * 1024;

const tooLarge = () => new Error(`the avatar service's answer is larger than ${MAX_UPSTREAM_ANSWER_BYTES} bytes`);

/** `fetchJson` over `o.fetch` (default the global `fetch`) with the answer capped at {@link MAX_UPSTREAM_ANSWER_BYTES}. */
export const cappedFetchJson: UpstreamExchange = (url, init, o) => {
  const base = o.fetch ?? globalThis.fetch;
  const capped = async (input: Parameters<typeof fetch>[0], i?: RequestInit) => {
    const res = await base(input, i);
    const text = await readCapped(res, MAX_UPSTREAM_ANSWER_BYTES);
    return answer(res.status, Object.fromEntries(res.headers), text, res.statusText);
  };
  return fetchJson(url, init, { ...o, fetch: capped as typeof fetch });
};

/** The body of `res` as text, read while it stays within `maxBytes`; past it the stream is cancelled and this throws. */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const step = await reader.read();
    if (step.done) return text + decoder.decode();
    size += step.value.length;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new Error(`the answer is larger than ${maxBytes} bytes`);
    }
    text += decoder.decode(step.value, { stream: true });
  }
}

/** A keep-alive undici `Pool` for the service's origin, with that origin. */
export type UpstreamPool = { origin: string; pool: Undici.Pool };

/**
 * One keep-alive undici `Pool` for the service's origin, shared by every call a proxy makes to the service (see
 * `createUpstreamFetch` and `createUpstreamExchange`). Undefined when the optional peer `undici` (≥ 7) is not
 * installed, or the runtime cannot load it (Cloudflare Workers, Vercel Edge): the proxy then uses the global `fetch`.
 */
export function openPool(baseUrl: string): UpstreamPool | undefined {
  let undici: typeof Undici;
  // Node only: Bun and Deno answer `require('undici')` with shims that lack parts of undici 7's dispatch API.
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions;
  if (!versions?.node || versions.bun || 'Deno' in globalThis) return undefined;
  try {
    const req = nodeRequire();
    if (!req) return undefined;
    undici = req('undici') as typeof Undici;
    if (typeof undici.Pool !== 'function') return undefined;
  } catch {
    return undefined;
  }
  const origin = new URL(baseUrl).origin;
  return { origin, pool: new undici.Pool(origin, { keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS }) };
}

/**
 * The `fetch` the proxy uses for the avatar service when the options give none: undici's
 * `request()` over the proxy's keep-alive `Pool` for the service's origin (`openPool`). Node's global `fetch` is undici too, but
 * its WHATWG layer (Request/Response objects, web streams, AbortSignal plumbing) cost about as much CPU as the
 * whole upstream exchange; `request()` skips that layer. Same sockets, same timeouts (the caller's `signal`).
 *
 * Calls it cannot serve (another origin, a `FormData` or stream body, a `Request` object) go to the global `fetch`.
 *
 * The answer has `status`, `ok`, `headers`, `text()` and `json()` — what the service client reads — not a
 * full `Response` (building one costs ~27 µs per call). Network errors reject with undici's errors
 * (the service client turns them into `upstream_error` 502, an abort into `timeout` 504).
 */
export function createUpstreamFetch({ origin, pool }: UpstreamPool): typeof fetch {
  const upstreamFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    if (url === undefined || !url.startsWith(`${origin}/`) || (body != null && typeof body !== 'string')) return fetch(input, init);
    const res = await pool.request({
      origin,
      path: url.slice(origin.length),
      method: (init?.method ?? 'GET') as Undici.Dispatcher.HttpMethod,
      headers: plainHeaders(init?.headers),
      body: body ?? undefined,
      signal: init?.signal ?? undefined,
    });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_UPSTREAM_ANSWER_BYTES) {
        res.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return answer(res.statusCode, res.headers, Buffer.concat(chunks).toString('utf8'));
  };
  return upstreamFetch as typeof fetch;
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> | undefined {
  if (headers === undefined || (typeof headers === 'object' && !Array.isArray(headers) && !(headers instanceof Headers))) {
    return headers as Record<string, string> | undefined;
  }
  return Object.fromEntries(new Headers(headers));
}

/** The parts of a `Response` the service client reads, for a body already read as text. */
function answer(status: number, raw: Record<string, string | string[] | undefined>, text: string, statusText = ''): Response {
  let headers: Headers | undefined;
  const res = {
    status,
    ok: status >= 200 && status < 300,
    statusText,
    get headers() {
      headers ??= new Headers(
        Object.entries(raw).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v] as [string, string]])),
      );
      return headers;
    },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  };
  return res as unknown as Response;
}

/** One call of the service client: fetchJson's signature (see `fetchJson`). */
export type UpstreamExchange = (url: string, init: RequestInit, o: FetchJsonOptions) => Promise<FetchedJson>;

/**
 * The service client's calls to the service when the options give no `fetch`: undici's `dispatch()` on one
 * keep-alive `Pool` for the service's origin (`openPool`), the answer collected straight into a string. Compared with
 * `request()` (see `createUpstreamFetch`) it skips the response stream, the `AbortController` and the
 * `Response`-like object, which together cost about a tenth of the proxy's CPU per status poll. The time limit
 * (`o.timeoutMs`, body included) is a timer that aborts the dispatch.
 *
 * Calls it cannot serve (another origin, a `FormData` body, a caller's abort signal) go through `fetchJson` and the
 * global `fetch`.
 */
export function createUpstreamExchange({ origin, pool }: UpstreamPool): UpstreamExchange {
  return (url, init, o) => {
    const body = init.body;
    if (o.signal || !url.startsWith(`${origin}/`) || (body != null && typeof body !== 'string')) return cappedFetchJson(url, init, o);
    return new Promise<FetchedJson>((resolve, reject) => {
      let controller: Undici.Dispatcher.DispatchController | undefined;
      let settled = false;
      let timedOut = false;
      let status = 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const timer = setTimeout(() => {
        timedOut = true;
        const err = new Error(`no answer within ${o.timeoutMs} ms`);
        controller?.abort(err);
        fail(err);
      }, o.timeoutMs);
      const fail = (err: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(o.fail(timedOut ? 'timeout' : 'network', err));
      };
      pool.dispatch(
        {
          origin,
          path: url.slice(origin.length),
          method: (init.method ?? 'GET') as Undici.Dispatcher.HttpMethod,
          headers: plainHeaders(init.headers),
          body: body ?? undefined,
        },
        {
          onRequestStart(c) {
            controller = c;
            if (timedOut) c.abort(new Error('timed out before the request started'));
          },
          onResponseStart(_c, statusCode) {
            status = statusCode;
          },
          onResponseData(c, chunk) {
            size += chunk.length;
            if (size > MAX_UPSTREAM_ANSWER_BYTES) {
              const err = tooLarge();
              c.abort(err);
              fail(err);
              return;
            }
            chunks.push(chunk);
          },
          onResponseEnd() {
            clearTimeout(timer);
            if (settled) return;
            settled = true;
            const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
            resolve({ status, ok: status >= 200 && status < 300, statusText: '', text, ...parseJson(text) });
          },
          onResponseError(_c, err) {
            fail(err);
          },
        },
      );
    });
  };
}

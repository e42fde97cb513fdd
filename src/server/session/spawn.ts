import { LiveAiError } from '../../core/index';
import { serviceClientOver, type ServiceClient } from '../service/client';
import { cappedFetchJson, MAX_UPSTREAM_ANSWER_BYTES, readCapped } from '../service/upstream-fetch';
import type { Guard, Reservation } from '../limits/guard';
import { ClientUnknown } from '../limits/client-ip';
import type { ProxyLog } from '../logging';
import type { ResolvedOptions } from '../options';
import type { Background, WaitUntil } from '../platform';

/** How long after answering the browser 504 the proxy still waits for the service's create answer, ms. */
export const LATE_GRACE_MS = 60_000;
const SESSION_ID = /"session_id"\s*:\s*"([^"\\\u0000-\u001f]{1,256})"/;

/** What a create call needs from the request. */
export interface SpawnCall {
  requestId: string;
  /** Client address; required when spending limits are on. */
  client?: string;
  /** True once the browser went away (closed the connection or aborted the request). */
  gone?: () => boolean;
  /** The request's own `waitUntil` (Cloudflare's `ctx.waitUntil`), for work that outlives the answer. */
  waitUntil?: WaitUntil;
}

/** Runs the service's create calls so that no session it creates is left without an owner. */
export interface Spawner {
  /** The service client of create calls (its time limit is the proxy's plus {@link LATE_GRACE_MS}). */
  upstream: ServiceClient;
  /**
   * Reserves a slot for the client, runs `start`, and returns the created resource with its end time. A session
   * that the browser will never learn about is ended at the service and logged: the browser went away, the
   * answer came after the proxy's time limit (504), or the 201 body could not be read (502) but names the id.
   */
  spawn<T extends { session_id: string }>(
    call: SpawnCall,
    start: (upstream: ServiceClient) => Promise<T>,
  ): Promise<T & { session_expires_at?: string }>;
}

/**
 * @param upstreamFetch the proxy's `fetch` to the service (its keep-alive pool); default the global `fetch`.
 * @param background runs the work the browser does not wait for (see `createBackground`).
 */
export function createSpawner<Req>(
  options: ResolvedOptions<Req>,
  guard: Guard,
  log: ProxyLog,
  upstreamFetch: typeof fetch | undefined,
  background: Background,
): Spawner {
  const timeoutMs = options.upstream.timeoutMs ?? 15_000;
  const base = upstreamFetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const rawBodies = new Map<string, string>();
  // Keeps the text of 2xx create answers by request id, so an id can be recovered from a body that does not parse.
  const capturing: typeof fetch = async (input, init) => {
    const res = await base(input, init);
    if (res.status < 200 || res.status >= 300) return res;
    const text = await readCapped(res, MAX_UPSTREAM_ANSWER_BYTES);
    const rid = new Headers(init?.headers).get('x-request-id');
    if (rid) rawBodies.set(rid, text);
    return new Response(text, { status: res.status, headers: res.headers });
  };
  const upstream = serviceClientOver(
    {
      baseUrl: options.upstream.baseUrl,
      apiKey: options.upstream.apiKey,
      fetch: capturing,
      timeoutMs: timeoutMs + LATE_GRACE_MS,
      retries: 0,
      providerLabels: options.providerLabels,
    },
    cappedFetchJson,
  );
  /**
   * Ends a session the browser will never hear of. Until it is over at the service it keeps its client's place: the
   * reservation becomes the session (with its deadline, so the sweep tries again if this end fails), and the end
   * frees it. Freed earlier, the client could start one more than its cap while the orphan still runs.
   */
  const orphan = async (sessionId: string, why: string, call: SpawnCall, slot: Reservation | undefined) => {
    log.warn({ reqId: call.requestId, sessionId, why }, 'avatar session never reached the browser');
    await guard.created(slot, sessionId).catch(() => {});
    return guard.endSession(sessionId, 'orphaned', call.requestId, slot?.client ?? call.client).catch(() => {});
  };

  return {
    upstream,
    async spawn(call, start) {
      const caps = options.sessionCaps;
      if (caps && call.client === undefined) throw noClient();
      // Without per-client limits the client may be unknown: the owner's ceilings still count the session.
      const slot = await guard.reserve(call.client ?? '-', call.requestId);
      let late = false;
      let orphaned = false;
      const pending = start(upstream);
      // What becomes of the service's answer is decided here, whether or not the browser is still waiting for it: a
      // session the browser will never hear of (it went away, the answer came after the time limit, or the answer
      // could not be read but names the id) is ended. Attached before the browser's own wait, so it runs first, and
      // handed to `waitUntil` from the start: on platforms that stop a function after its response (or when the
      // browser leaves), this is what keeps the end running.
      // It also frees the client's place of every create that did not reach the browser, once the service's answer
      // says whether a session runs: a create that timed out keeps its place until then.
      const fate = pending.then(
        async (s) => {
          rawBodies.delete(call.requestId);
          if (!late && !call.gone?.()) return;
          orphaned = true;
          await orphan(s.session_id, late ? 'answered after the time limit' : 'browser went away', call, slot);
        },
        async (err: unknown) => {
          const id = SESSION_ID.exec(rawBodies.get(call.requestId) ?? '')?.[1];
          rawBodies.delete(call.requestId);
          if (id !== undefined) return orphan(id, late ? 'unreadable answer after the time limit' : 'unreadable answer', call, slot);
          // A refusal (4xx) made no session: the create gives back its place in the create windows too. A time-out
          // (408) or an aborted call (499) may have made one: those keep their place.
          const status = err instanceof LiveAiError ? err.status : undefined;
          const refused = !late && status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 499;
          await guard.failed(slot, refused).catch(() => {});
          // A late refusal (4xx) made no session; only a silent service leaves one we cannot know.
          if (!late || (status !== undefined && status < 500)) return;
          log.error({ reqId: call.requestId }, 'avatar service never answered a create call; a session it made (if any) cannot be ended');
        },
      );
      background(fate, call.waitUntil);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          late = true;
          reject(new LiveAiError('timeout', `the avatar service did not answer within ${timeoutMs} ms`, { status: 504 }));
        }, timeoutMs);
      });
      let created: Awaited<typeof pending>;
      try {
        // On a failure `fate` frees the place (or ends the session the service made late).
        created = await Promise.race([pending, timeout]);
      } finally {
        clearTimeout(timer);
      }
      // Decided by `fate`, which ran first: the browser went away before the answer (`fate` ends it).
      if (orphaned) throw new LiveAiError('aborted', 'The request was aborted', { status: 499 });
      try {
        return { ...created, ...(await guard.created(slot, created.session_id)) };
      } catch (e) {
        // Fail closed: a session the proxy cannot count (its store failed) is ended before the browser hears of it.
        log.error({ reqId: call.requestId, sessionId: created.session_id }, 'avatar proxy store failed after a create; ending the session');
        await guard.endSession(created.session_id, 'orphaned', call.requestId, call.client).catch(() => {});
        throw e;
      }
    },
  };
}

const noClient = () => new ClientUnknown();

import type { ClientSession, SessionStatus } from '../core/index';
import { createFakeRoutes, type FakeProxyOptions, type FakeSessionRecord } from './fake-proxy-routes';

export type { FakeProxyOptions, FakeSessionRecord } from './fake-proxy-routes';

/**
 * One request the fake proxy received.
 * @public
 */
export interface FakeProxyCall {
  method: string;
  /** Route pattern, e.g. `/sessions/:id/control`. */
  route: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * An in-memory implementation of the proxy routes of `createAvatarProxy` behind a `fetch`
 * function: rooms, sessions (JSON or multipart), status, control (with the 400/413 rules), leave-meeting, end
 * (Bearer or body `client_token`) and the list routes with pagination. For users' tests and for stories.
 * @public
 */
export function createFakeProxy(options: FakeProxyOptions = {}) {
  const { sessions, create, clientOf, list, routes } = createFakeRoutes(options);
  const calls: FakeProxyCall[] = [];
  const failures = new Map<string, { status: number; detail: string }[]>();
  const gates = new Map<string, Promise<void>>();

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost/');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        return json(400, { detail: 'body must be JSON' });
      }
    }
    const m = /\/(rooms|sessions)(?:\/([^/]+))?(?:\/(control|leave-meeting|end))?\/?$/.exec(url.pathname);
    const id = m?.[2] ? decodeURIComponent(m[2]) : undefined;
    const route = m ? `/${m[1]}${id !== undefined ? '/:id' : ''}${m[3] ? `/${m[3]}` : ''}` : url.pathname;
    calls.push({ method, route, path: url.pathname, headers, body });
    const key = `${method} ${route}`;
    const gate = gates.get(key);
    if (gate) await abortable(gate, init.signal);
    if (init.signal?.aborted) throw abortError();
    const failure = failures.get(key)?.shift();
    if (failure) return json(failure.status, { detail: failure.detail });
    if (method === 'GET' && (route === '/rooms' || route === '/sessions')) {
      const [s, b] = list(route === '/rooms' ? 'room' : 'session', url.searchParams);
      return json(s, b);
    }
    const handler = routes[key];
    if (!handler) return json(404, { detail: `No route ${key}` });
    const [status, out] = await handler({ method, id, headers, body });
    return json(status, out);
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    calls,
    sessions,
    /** Calls of one route, e.g. `callsTo('POST /rooms')`. */
    callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.route}` === key),
    /** Sets a session's status (and the cost reported when COMPLETED). */
    setStatus(id: string, status: SessionStatus, cost?: number) {
      const r = sessions.get(id);
      if (!r) throw new Error(`fake proxy: no session ${id}`);
      r.status = status;
      if (cost !== undefined) r.cost = cost;
    },
    /** The most recently created session. */
    last: (): FakeSessionRecord | undefined => [...sessions.values()].at(-1),
    /** Makes the next call of `key` (e.g. `POST /rooms`) answer `status` with `{detail}`. */
    failNext(key: string, status: number, text: string) {
      failures.set(key, [...(failures.get(key) ?? []), { status, detail: text }]);
    },
    /** Holds every call of `key` until the returned function is called (aborting the request rejects it). */
    hold(key: string): () => void {
      let release!: () => void;
      gates.set(key, new Promise<void>((r) => (release = r)));
      return () => {
        gates.delete(key);
        release();
      };
    },
    /** Adds a session directly (stories, list fixtures) and returns its client handle. */
    seedSession(seed: Partial<FakeSessionRecord> & { kind?: 'room' | 'session' } = {}): ClientSession {
      const r = create(
        seed.kind ?? 'room',
        seed.transport ?? (seed.kind === 'session' ? 'rtc-a' : 'rtc-b'),
        seed.agent_id ?? 'agent-demo',
        seed,
      );
      return clientOf(r);
    },
  };
}
/** @public */
export type FakeProxy = ReturnType<typeof createFakeProxy>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const abortError = () => Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
function abortable(p: Promise<void>, signal?: AbortSignal | null): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(abortError()), { once: true });
    p.then(resolve);
  });
}

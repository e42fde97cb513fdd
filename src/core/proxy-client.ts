import type * as v from 'valibot';
import { LiveAiError, formatIssues } from './errors';
import { check, loadCallSchemas, type Checked } from './lazy';
import { fetchJson, type FetchFailure } from '../shared/fetch-json';
import type {
  ClientSession,
  ControlEvent,
  ControlResponse,
  LeaveMeetingResponse,
  ProxySessionRequest,
  RoomList,
  SessionList,
  ProxySessionStatus,
} from './schemas';

/** Checks a response body with its schema, loaded on first use (the call-path chunk, or all schemas). */
type BodyCheck<T> = (body: unknown) => Promise<Checked<v.GenericSchema<unknown, T>>>;
const clientSession: BodyCheck<ClientSession> = (b) => check(b, (s) => s.ClientSessionSchema);
const errorBody = (b: unknown) => check(b, (s) => s.ErrorBodySchema);
const clientToken: BodyCheck<{ client_token: string; expires_at: string }> = (b) => check(b, (s) => s.ClientTokenSchema);
const sessionStatus: BodyCheck<ProxySessionStatus> = (b) => check(b, (s) => s.ProxySessionStatusSchema);
const controlAnswer: BodyCheck<ControlResponse> = (b) => check(b, (s) => s.ControlResponseSchema, 'all');
const leaveAnswer: BodyCheck<LeaveMeetingResponse> = (b) => check(b, (s) => s.LeaveMeetingResponseSchema, 'all');
const roomList: BodyCheck<RoomList> = (b) => check(b, (s) => s.RoomListSchema, 'all');
const sessionList: BodyCheck<SessionList> = (b) => check(b, (s) => s.SessionListSchema, 'all');

/**
 * Options of `createProxyClient`.
 * @public
 */
export interface ProxyClientOptions {
  /** Where `createAvatarProxy` is mounted, e.g. `/api/avatar` or `https://app.example/api/avatar`. */
  proxyUrl: string;
  fetch?: typeof fetch;
  /** Per-request time limit in ms (default 30000); exceeding it rejects with `timeout`. */
  timeoutMs?: number;
  /** Extra headers on every request (e.g. your app's auth for `authorize` / `admin`). */
  headers?: Record<string, string>;
}

/**
 * Per-call options.
 * @public
 */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Page query of the admin list calls (page ≥ 1, limit 1–100).
 * @public
 */
export interface PageQuery {
  page?: number;
  limit?: number;
}

/**
 * Browser → proxy client. Every method resolves with the validated body or rejects with
 * `LiveAiError`: the proxy's `{detail}` and status via `LiveAiError.fromResponse` (400 `invalid_request`,
 * 401 `invalid_api_key`, 402, 403, 404, 413, 429, 5xx `upstream_error`, 504 `timeout`), `timeout` when
 * `timeoutMs` passes, `aborted` when the caller's signal aborts, `upstream_error` for a network failure or an
 * unexpected body. Session calls send `Authorization: Bearer <client_token>`.
 * @public
 */
export interface ProxyClient {
  /** `POST /rooms {agent_id}` → the browser's session handle. */
  createRoom(agentId: string, options?: CallOptions): Promise<ClientSession>;
  /** `POST /sessions`: JSON, or multipart with `image` + `payload` parts when `image` is given. */
  createSession(request: ProxySessionRequest, image?: Blob, options?: CallOptions): Promise<ClientSession>;
  /** `GET /sessions/:id` → `{session_status, cost?, end_reason?}`. */
  getSession(sessionId: string, clientToken: string, options?: CallOptions): Promise<ProxySessionStatus>;
  /** `POST /sessions/:id/control` with one control event → `{success}`. */
  control(sessionId: string, clientToken: string, event: ControlEvent, options?: CallOptions): Promise<ControlResponse>;
  /** `POST /sessions/:id/leave-meeting {meeting_bot_id}` → `{status: 'left'}`. */
  leaveMeeting(sessionId: string, clientToken: string, meetingBotId: string, options?: CallOptions): Promise<LeaveMeetingResponse>;
  /** `POST /sessions/:id/end` (the proxy sends `terminate`). */
  end(sessionId: string, clientToken: string, options?: CallOptions): Promise<void>;
  /**
   * Ends on page unload: `navigator.sendBeacon` of `{client_token}` as `text/plain` (falls back to a
   * `keepalive` fetch). Returns false when neither is available or the beacon was refused. Never throws.
   */
  endBeacon(sessionId: string, clientToken: string): boolean;
  /** Drops what the client keeps for `clientToken` (its renewed token) once its session is over for this page. */
  forget(clientToken: string): void;
  /** `GET /rooms?page&limit` (admin only). */
  listRooms(query?: PageQuery, options?: CallOptions): Promise<RoomList>;
  /** `GET /sessions?page&limit` (admin only). */
  listSessions(query?: PageQuery, options?: CallOptions): Promise<SessionList>;
}

/**
 * Creates the browser → proxy client. Throws nothing at creation.
 * @public
 */
export function createProxyClient(options: ProxyClientOptions): ProxyClient {
  const base = options.proxyUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = (...args: Parameters<typeof fetch>) => (options.fetch ?? globalThis.fetch)(...args);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const enc = encodeURIComponent;

  const fail = (why: FetchFailure, cause: unknown) => {
    if (why === 'aborted') return new LiveAiError('aborted', 'the request was aborted', { cause });
    if (why === 'timeout') return new LiveAiError('timeout', `no answer from the proxy within ${timeoutMs} ms`, { cause, source: 'proxy' });
    return new LiveAiError('upstream_error', `could not reach the proxy: ${String((cause as Error)?.message ?? cause)}`, {
      cause,
      source: 'proxy',
    });
  };

  async function call<T>(
    checkBody: BodyCheck<T> | null,
    path: string,
    init: RequestInit,
    callOptions?: CallOptions,
  ): Promise<T | undefined> {
    // Load the checks while the request is in flight, not after the answer arrives.
    loadCallSchemas().catch(() => undefined);
    const headers = { ...options.headers, ...(init.headers as Record<string, string> | undefined) };
    const res = await fetchJson(
      `${base}${path}`,
      { ...init, headers },
      { fetch: options.fetch, timeoutMs, signal: callOptions?.signal, fail },
    );
    if (!res.ok) {
      const detail = await errorBody(res.body);
      const text = detail.success ? detail.output.detail : res.text.slice(0, 200) || res.statusText || `HTTP ${res.status}`;
      throw LiveAiError.fromResponse(res.status, text, 'proxy');
    }
    if (checkBody === null) return undefined;
    const parsed = await checkBody(res.body);
    if (!parsed.success) {
      throw new LiveAiError('upstream_error', `unexpected response from the proxy: ${formatIssues(parsed.issues)}`, {
        status: res.status,
        source: 'proxy',
      });
    }
    return parsed.output;
  }
  const must = async <T>(p: Promise<T | undefined>) => (await p) as T;
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const page = (q: PageQuery = {}) => {
    const params = new URLSearchParams();
    if (q.page !== undefined) params.set('page', String(q.page));
    if (q.limit !== undefined) params.set('limit', String(q.limit));
    const s = params.toString();
    return s ? `?${s}` : '';
  };

  const renewals = tokenRenewals((id, token) =>
    must(call(clientToken, `/sessions/${enc(id)}/token`, { method: 'POST', headers: bearer(token) })),
  );
  const fresh = renewals.fresh;

  return {
    createRoom: (agentId, o) => must(call(clientSession, '/rooms', json({ agent_id: agentId }), o)),
    createSession(request, image, o) {
      if (!image) return must(call(clientSession, '/sessions', json(request), o));
      const form = new FormData();
      form.append('image', image, (image as File).name || 'avatar.jpg');
      form.append('payload', new Blob([JSON.stringify(request)], { type: 'application/json' }));
      return must(call(clientSession, '/sessions', { method: 'POST', body: form }, o));
    },
    getSession: async (id, token, o) =>
      must(call(sessionStatus, `/sessions/${enc(id)}`, { method: 'GET', headers: bearer(await fresh(id, token)) }, o)),
    control: async (id, token, event, o) =>
      must(call(controlAnswer, `/sessions/${enc(id)}/control`, json(event, bearer(await fresh(id, token))), o)),
    leaveMeeting: async (id, token, meetingBotId, o) =>
      must(
        call(leaveAnswer, `/sessions/${enc(id)}/leave-meeting`, json({ meeting_bot_id: meetingBotId }, bearer(await fresh(id, token))), o),
      ),
    end: async (id, token, o) => {
      await call(null, `/sessions/${enc(id)}/end`, json({}, bearer(renewals.latest(token))), o);
      renewals.forget(token);
    },
    endBeacon(id, token) {
      const url = `${base}/sessions/${enc(id)}/end`;
      const body = JSON.stringify({ client_token: renewals.latest(token) });
      renewals.forget(token);
      try {
        const nav = typeof navigator === 'undefined' ? undefined : navigator;
        if (nav && typeof nav.sendBeacon === 'function') return nav.sendBeacon(url, new Blob([body], { type: 'text/plain' }));
        void doFetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => {});
        return true;
      } catch {
        return false;
      }
    },
    forget: (token) => renewals.forget(token),
    listRooms: (q, o) => must(call(roomList, `/rooms${page(q)}`, { method: 'GET' }, o)),
    listSessions: (q, o) => must(call(sessionList, `/sessions${page(q)}`, { method: 'GET' }, o)),
  };
}

/** Renew a client token when less than this share of its lifetime is left. */
const RENEW_AT_SHARE = 0.5;

/**
 * Keeps each session's client token fresh: the proxy issues short-lived tokens, and a session call made with a
 * token past half its lifetime first asks `POST /sessions/:id/token` for a new one. Callers keep passing the
 * token they were given; the newest one is looked up by it. A refused renewal (session ended) keeps the old one.
 */
function tokenRenewals(renew: (id: string, token: string) => Promise<{ client_token: string }>) {
  const newest = new Map<string, string>();
  const pending = new Map<string, Promise<string>>();
  const latest = (token: string) => newest.get(token) ?? token;
  return {
    latest,
    forget(token: string) {
      newest.delete(token);
      pending.delete(token);
    },
    async fresh(id: string, token: string): Promise<string> {
      const current = latest(token);
      const claims = jwtTimes(current);
      if (!claims || (claims.exp - Date.now() / 1000) / Math.max(1, claims.exp - claims.iat) > RENEW_AT_SHARE) return current;
      let p = pending.get(token);
      if (!p) {
        p = renew(id, current).then(
          (r) => {
            newest.set(token, r.client_token);
            return r.client_token;
          },
          () => current,
        );
        pending.set(token, p);
        void p.finally(() => pending.delete(token));
      }
      return p;
    },
  };
}

/** `exp` and `iat` (s) of a JWT, read without checking it (the proxy checks it); undefined when absent. */
function jwtTimes(token: string): { exp: number; iat: number } | undefined {
  try {
    const part = token.split('.')[1] ?? '';
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    return typeof json.exp === 'number' && typeof json.iat === 'number' ? { exp: json.exp, iat: json.iat } : undefined;
  } catch {
    return undefined;
  }
}

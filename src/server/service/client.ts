import { formatIssues, invalidRequest, type ProviderLabelsInput, providerRenamer } from '../../core/internal';
import {
  CreateRoomRequestSchema,
  RoomListSchema,
  RoomSchema,
  ControlResponseSchema,
  CreateSessionRequestSchema,
  ErrorBodySchema,
  LeaveMeetingRequestSchema,
  LeaveMeetingResponseSchema,
  PaginationQuerySchema,
  SessionListSchema,
  SessionSchema,
  SessionStatusResponseSchema,
} from '../../core/validation';
import { backoffDelay, pause } from '../../shared/backoff';
import { fetchJson, type FetchFailure, type FetchedJson } from '../../shared/fetch-json';
import {
  type ControlEvent,
  type ControlResponse,
  type CreateRoomRequest,
  type CreateSessionRequest,
  type LeaveMeetingRequest,
  type LeaveMeetingResponse,
  LiveAiError,
  type PaginationQuery,
  type Room,
  type RoomList,
  type Session,
  type SessionList,
  type SessionStatusResponse,
} from '../../core/index';
import { labelledForm, neutralList } from './labels';
import { safeParseControlEvent } from '../session/control-event';
import * as v from 'valibot';

/**
 * Options of {@link createServiceClient}.
 * @public
 */
export interface ServiceClientOptions {
  /** Base address of the service (`{base_url}`), http(s); the `/liveai/...` paths are appended. */
  baseUrl: string;
  /** The account's API key, sent as `X-API-Key`. A secret: keep it on a server. */
  apiKey: string;
  /** Fetch implementation (default `globalThis.fetch`), e.g. to count or instrument calls. */
  fetch?: typeof fetch;
  /** Time limit of one attempt, in ms, response body included (default 15000). */
  timeoutMs?: number;
  /** Extra attempts for GET requests after a network error, 429 or 5xx (default 2). POSTs are never retried. */
  retries?: number;
  /** First back-off delay in ms (default 250); doubles per attempt up to 4000 ms, with ±50 % jitter. */
  backoffMs?: number;
  /**
   * The service's names for the two media providers, e.g. `{ 'rtc-a': 'livekit', 'rtc-b': 'daily' }` or
   * `'rtc-a=livekit,rtc-b=daily'`. You keep passing and receiving the neutral names (`rtc-a`, `rtc_a_url`, `RTC_A`);
   * on the wire every identifier uses the labels (`livekit`, `livekit_url`, `LIVEKIT`). Default: the neutral labels.
   * A malformed value throws `invalid_request` (`providerLabels: …`).
   */
  providerLabels?: ProviderLabelsInput;
}

/**
 * Per-call options.
 * @public
 */
export interface ServiceCallOptions {
  /** Aborts the call; it then rejects with code `aborted`. */
  signal?: AbortSignal;
  /** Sent as `x-request-id` to correlate logs. */
  requestId?: string;
}

/**
 * Typed client of every endpoint of the service. Each method validates its input with the core schema
 * (bad input → `invalid_request` 400 before any request) and its response with the schemas of `liveai-kit/schemas`.
 * Errors (all `LiveAiError`): a service 4xx/5xx → `LiveAiError.fromResponse(status, detail)`;
 * time-out → `timeout` (status 504); network failure, non-JSON or unexpected body → `upstream_error` (status 502);
 * caller abort → `aborted`. Errors about the service's answer (or its absence) have `source: 'service'`.
 * @public
 */
export interface ServiceClient {
  /** `GET /liveai/rooms`: `page` ≥ 1, `limit` 1–100. */
  listRooms(query?: Partial<PaginationQuery>, options?: ServiceCallOptions): Promise<RoomList>;
  /** `POST /liveai/rooms` → Room (201); 402 no credits, 404 unknown agent. */
  createRoom(body: CreateRoomRequest, options?: ServiceCallOptions): Promise<Room>;
  /** `GET /liveai/sessions`. */
  listSessions(query?: Partial<PaginationQuery>, options?: ServiceCallOptions): Promise<SessionList>;
  /** `POST /liveai/sessions`, JSON or multipart `FormData` (`image` ≤ 4 MB + `payload` JSON part). */
  createSession(body: CreateSessionRequest | FormData, options?: ServiceCallOptions): Promise<Session>;
  /** `GET /liveai/sessions/{id}` → `{session_status, cost?}`. */
  getSession(sessionId: string, options?: ServiceCallOptions): Promise<SessionStatusResponse>;
  /** `POST /liveai/sessions/{id}/control` → `{success}`; 413 inline image ≥ 921600 bytes. */
  control(sessionId: string, event: ControlEvent, options?: ServiceCallOptions): Promise<ControlResponse>;
  /** `POST /liveai/sessions/{id}/leave-meeting` → `{status: 'left'}`. */
  leaveMeeting(sessionId: string, body: LeaveMeetingRequest, options?: ServiceCallOptions): Promise<LeaveMeetingResponse>;
}

interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  schema: v.GenericSchema<unknown, T>;
  options: ServiceCallOptions | undefined;
  /** Applied to a 2xx JSON body before `schema` (provider labels → neutral). */
  fromWire?: (body: unknown) => unknown;
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Every answer of the service, and its absence, is the service's error (see `LiveAiError.source`). */
const source = 'service' as const;
const BACKOFF_CAP_MS = 4000;

/** Parses `value` with `schema` or throws `invalid_request` (400) naming the fields. */
function input<T>(schema: v.GenericSchema<unknown, T>, value: unknown): T {
  const r = v.safeParse(schema, value);
  if (!r.success) throw invalidRequest(r.issues);
  return r.output;
}

function sessionPath(sessionId: string, suffix = ''): string {
  if (typeof sessionId !== 'string' || sessionId.length === 0) {
    throw new LiveAiError('invalid_request', 'session_id must be a non-empty string', { status: 400 });
  }
  return `/liveai/sessions/${encodeURIComponent(sessionId)}${suffix}`;
}

function listPath(path: string, query: Partial<PaginationQuery> | undefined): string {
  const q = input(PaginationQuerySchema, query ?? {});
  return `${path}?page=${q.page}&limit=${q.limit}`;
}

/**
 * Creates the typed REST client of the avatar service. Server-only: it holds the API key,
 * so it is exported from `liveai-kit/server`, never from a browser entry (it has no Node built-ins itself).
 * @throws LiveAiError `invalid_request` when `baseUrl` is not an http(s) URL or `apiKey` is empty.
 * @public
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return serviceClientOver(options, fetchJson);
}

/** {@link createServiceClient} with another way to make each call (the proxy's keep-alive pool); `options.fetch` is then unused. */
export function serviceClientOver(options: ServiceClientOptions, exchange: typeof fetchJson): ServiceClient {
  const base = checkBaseUrl(options.baseUrl);
  if (typeof options.apiKey !== 'string' || options.apiKey.length === 0) {
    throw new LiveAiError('invalid_request', 'apiKey must be a non-empty string', { status: 400 });
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 250;
  const labels = providerRenamer(options.providerLabels);

  const fail = (call: Call<unknown>) => (why: FetchFailure, cause: unknown) => {
    const what = `${call.method} ${call.path}`;
    if (why === 'aborted') return new LiveAiError('aborted', `${what} was aborted`, { cause });
    if (why === 'timeout') {
      return new LiveAiError('timeout', `the avatar service did not answer ${what} within ${timeoutMs} ms`, { status: 504, cause, source });
    }
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new LiveAiError('upstream_error', `could not reach the avatar service (${reason})`, { status: 502, cause, source });
  };

  async function attempt<T>(call: Call<T>): Promise<T> {
    const headers: Record<string, string> = { 'X-API-Key': options.apiKey, Accept: 'application/json' };
    if (call.options?.requestId) headers['x-request-id'] = call.options.requestId;
    let body: BodyInit | undefined;
    if (call.body instanceof FormData) body = call.body;
    else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const init = { method: call.method, headers, body };
    const res = await exchange(`${base}${call.path}`, init, {
      fetch: options.fetch,
      timeoutMs,
      signal: call.options?.signal,
      fail: fail(call),
    });
    return readResponse(call, call.fromWire && res.isJson && res.status < 300 ? { ...res, body: call.fromWire(res.body) } : res);
  }

  async function request<T>(call: Call<T>): Promise<T> {
    if (call.options?.signal?.aborted) throw new LiveAiError('aborted', `${call.method} ${call.path} was aborted`);
    const maxAttempts = call.method === 'GET' ? Math.max(0, retries) + 1 : 1;
    for (let n = 1; ; n++) {
      try {
        return await attempt(call);
      } catch (e) {
        if (n >= maxAttempts || !isRetryable(e)) throw e;
        await pause(backoffDelay(n - 1, { baseMs: backoffMs, maxMs: BACKOFF_CAP_MS }), call.options?.signal);
        if (call.options?.signal?.aborted) throw new LiveAiError('aborted', 'the call was aborted');
      }
    }
  }

  const get = <T>(path: string, schema: v.GenericSchema<unknown, T>, o?: ServiceCallOptions) =>
    request({ method: 'GET', path, schema, options: o });
  const post = <T>(path: string, body: unknown, schema: v.GenericSchema<unknown, T>, o?: ServiceCallOptions) =>
    request({ method: 'POST', path, body, schema, options: o });

  // Methods are async so that invalid input rejects (never throws synchronously).
  return {
    listRooms: async (query, o) => get(listPath('/liveai/rooms', query), RoomListSchema, o),
    createRoom: async (body, o) => post('/liveai/rooms', input(CreateRoomRequestSchema, body), RoomSchema, o),
    listSessions: async (query, o) =>
      request({
        method: 'GET',
        path: listPath('/liveai/sessions', query),
        schema: SessionListSchema,
        options: o,
        fromWire: (b) => neutralList(labels, b),
      }),
    createSession: async (body, o) =>
      post(
        '/liveai/sessions',
        body instanceof FormData ? await labelledForm(labels, body) : labels.bodyToWire(input(CreateSessionRequestSchema, body)),
        SessionSchema,
        o,
      ),
    getSession: async (id, o) => get(sessionPath(id), SessionStatusResponseSchema, o),
    control: async (id, event, o) => {
      const r = safeParseControlEvent(event);
      if (!r.success) throw invalidRequest(r.issues);
      return post(sessionPath(id, '/control'), r.output, ControlResponseSchema, o);
    },
    leaveMeeting: async (id, body, o) =>
      post(sessionPath(id, '/leave-meeting'), input(LeaveMeetingRequestSchema, body), LeaveMeetingResponseSchema, o),
  };
}

function checkBaseUrl(value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new LiveAiError('invalid_request', 'baseUrl must be an http(s) URL', { status: 400 });
  }
  return url.href.replace(/\/+$/, '');
}

function readResponse<T>(call: Call<T>, res: FetchedJson): T {
  if (res.status < 200 || res.status >= 300) {
    const body = res.isJson ? v.safeParse(ErrorBodySchema, res.body) : undefined;
    const detail = body?.success ? body.output.detail : `the avatar service answered ${call.method} ${call.path} with HTTP ${res.status}`;
    throw LiveAiError.fromResponse(res.status, detail, source);
  }
  const r = res.isJson ? v.safeParse(call.schema, res.body) : undefined;
  if (!r?.success) {
    const what = r ? `an unexpected response (${formatIssues(r.issues)})` : 'a non-JSON response';
    // A body we did receive (non-JSON, wrong shape): retrying would not help.
    throw new LiveAiError('upstream_error', `the avatar service sent ${what} to ${call.method} ${call.path}`, {
      status: 502,
      source,
      retryable: false,
    });
  }
  return r.output;
}

const isRetryable = (e: unknown): boolean =>
  e instanceof LiveAiError && e.retryable && e.code !== 'timeout' && e.status !== undefined && RETRY_STATUSES.has(e.status);

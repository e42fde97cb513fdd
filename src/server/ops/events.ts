/**
 * The proxy's operational events: one channel, emitted at the few places where something an operator counts happens
 * (a session created, ended, refused; a call to the service; a store fault). The structured log lines and the
 * OpenTelemetry instruments both listen to it, so the two can never disagree.
 */

/**
 * Why a session ended, as the proxy saw it:
 * - `user`: the browser (or the app) ended it through `POST /sessions/:id/end`;
 * - `max_duration`: the proxy ended it at its maximum length (`sessionLimits.maxDurationMs`);
 * - `orphaned`: the proxy ended it because the browser never learned of it (it went away, or the service answered
 *   too late);
 * - `service_ended`: the service ended it on its own with `COMPLETED` (the idle timeout, the avatar left);
 * - `service_failed`: the service reported `FAILED`;
 * - `service_timed_out`: the service reported `TIMED_OUT`.
 * Other proxy reasons may be added; each is a short fixed word, never a value from a request.
 * @public
 */
export type SessionEndReason =
  'user' | 'max_duration' | 'orphaned' | 'service_ended' | 'service_failed' | 'service_timed_out' | (string & {});

/**
 * Which check refused a create (`POST /rooms`, `POST /sessions`):
 * `client_running`, `client_creates`, `client_minutes` (the per-client limits), `owner_running`, `owner_creates`, `owner_minutes` (the
 * owner's ceilings), `origin` (the page's origin), `agent` (the `agents` policy), `room` (the `dailyRooms` policy),
 * `authorize` (the app's `authorize` callback), `store_unavailable` (the store could not be read: fail closed).
 * @public
 */
export type RefusalLimit =
  | 'client_running'
  | 'client_creates'
  | 'client_minutes'
  | 'owner_running'
  | 'owner_creates'
  | 'owner_minutes'
  | 'origin'
  | 'agent'
  | 'room'
  | 'authorize'
  | 'store_unavailable'
  | (string & {});

/** Every event of the channel; `name` is stable, and so are the fields. */
export type ProxyEvent =
  | {
      name: 'session.created';
      requestId: string;
      sessionId: string;
      /** The `agent_id`, or `custom_image` for a session with the caller's own image. */
      agent: string;
      /** `room` (`POST /rooms`) or the session's `transport_type`. */
      transport: string;
    }
  | {
      name: 'session.active';
      /** The request that read the status. */
      requestId: string;
      sessionId: string;
      agent: string;
      /** From the create to the first status read that answered `ACTIVE`, s. */
      seconds: number;
    }
  | {
      name: 'session.ended';
      /** The request that learned of the end, or `end-<uuid>` for the proxy's own background reads. */
      requestId: string;
      sessionId: string;
      agent: string;
      reason: SessionEndReason;
      /** Credits the service charged (its `cost` on `COMPLETED`); null when it reported none. */
      cost: number | null;
      /** From the create to when the proxy learned of the end, s. */
      seconds: number;
    }
  | { name: 'create.refused'; requestId: string; limit: RefusalLimit; status: number }
  | {
      name: 'service.call';
      /** The request the call was made for (its `x-request-id`), or `-` when none was sent. */
      requestId: string;
      method: string;
      /** The service's path with ids replaced: `/liveai/sessions/{id}/control`. */
      route: string;
      /** HTTP status, or 0 when none came (see `error`). */
      status: number;
      /** `timeout` or `network` when no status came. */
      error?: 'timeout' | 'network';
      ms: number;
    }
  | { name: 'store.error'; op: string; error: 'timeout' | 'error' };
// `store.error` names no request: the store client does not know which request a command serves.

export type ProxyEventName = ProxyEvent['name'];
export type ProxyEventListener = (event: ProxyEvent) => void;

/** The channel: listeners run synchronously, in order; a listener that throws never reaches the request. */
export interface ProxyEvents {
  on(listener: ProxyEventListener): void;
  emit(event: ProxyEvent): void;
}

export function createProxyEvents(): ProxyEvents {
  const listeners: ProxyEventListener[] = [];
  return {
    on(listener) {
      listeners.push(listener);
    },
    emit(event) {
      for (const l of listeners) {
        try {
          l(event);
        } catch {
          // Telemetry never breaks a request.
        }
      }
    },
  };
}

const LIMIT = Symbol.for('liveai.refusal');

/** Marks `err` as a refusal of a create by `limit` (read back by {@link refusalOf}); returns `err`. */
export function refused<E extends object>(err: E, limit: RefusalLimit): E {
  (err as Record<symbol, unknown>)[LIMIT] = limit;
  return err;
}

/** The limit a create's error was refused by, when it was a refusal. */
export function refusalOf(err: unknown): RefusalLimit | undefined {
  return typeof err === 'object' && err !== null ? ((err as Record<symbol, unknown>)[LIMIT] as RefusalLimit | undefined) : undefined;
}

/** `/liveai/sessions/abc/control?x` → `/liveai/sessions/{id}/control`: the route of a service path, bounded. */
export function serviceRoute(path: string): string {
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  const m = /^\/liveai\/(sessions|rooms)(\/[^/]+)?(\/(control|leave-meeting))?\/?$/.exec(p);
  if (!m) return 'other';
  return `/liveai/${m[1]}${m[2] ? '/{id}' : ''}${m[3] ?? ''}`;
}

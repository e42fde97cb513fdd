import { FINAL_STATUSES, LiveAiError, type SessionStatusResponse } from '../../core/index';
import type { FetchedJson } from '../../shared/fetch-json';
import type { ServiceClient } from '../service/client';
import type { UpstreamExchange } from '../service/upstream-fetch';
import { memoryStore, type ProxyStore, type SessionLedger } from '../limits/store';
import { StoreUnavailable } from '../limits/redis-store';
import { ClientUnknown } from '../limits/client-ip';
import type { ProxyLog } from '../logging';
import { createProxyEvents, refusalOf, serviceRoute, type ProxyEvent, type ProxyEvents } from './events';
import { attachLogEvents } from './log-events';
import { attachMetrics, type MetricsOptions } from './metrics';
import { memorySpendLedger, type SpendLedger } from './spend-ledger';
import { usageReport, type UsageReport } from './usage';

/** When the proxy asks the service again for the cost of a session that ended, ms after the previous ask. */
const SETTLE_DELAYS_MS = [250, 1000, 2000, 4000, 8000, 15_000, 30_000];
/** Longest wait of one readiness check, ms. */
const READY_TIMEOUT_MS = 2000;
/** A readiness answer is reused this long (load balancers of several nodes ask at once), ms. */
const READY_CACHE_MS = 1000;
/** Sessions remembered per instance as already seen `ACTIVE`. */
const SEEN_MAX = 10_000;
const PENDING = 'pending:';

/** A create the proxy made, as its call sites report it. */
export interface CreatedSession {
  requestId: string;
  /** The service's session id (never sent to a browser). */
  sessionId: string;
  /** `agent_id`, or undefined for a session with the caller's own image. */
  agent: string | undefined;
  transport: string;
  client: string | undefined;
}

/** The answer of `GET /health` and `GET /ready`. */
export interface Probe {
  status: number;
  body: { status: 'ok' | 'ready' | 'not_ready'; service?: string; store?: string };
}

/** The proxy's operations side: the event channel, the observed store, the spend ledger, health and usage. */
export interface Ops {
  events: ProxyEvents;
  /** The proxy's store, with each fault counted and the proxy's own session ends reported. */
  store: ProxyStore & { spend: SpendLedger };
  /** Times every call an exchange makes to the service (`service.call`). */
  timedExchange(exchange: UpstreamExchange): UpstreamExchange;
  /** Times every call a fetch makes to the service (`service.call`). */
  timedFetch(f: typeof fetch | undefined): typeof fetch;
  /** Hands over the service client used for readiness and for the cost of ended sessions. */
  useService(service: ServiceClient): void;
  /** Reports a create the service answered (call it once the browser is about to get the session). */
  created(c: CreatedSession): Promise<void>;
  /** Reports a status the service answered for a session (first `ACTIVE`, the end and its cost). */
  status(sessionId: string, startedAt: number, status: SessionStatusResponse, endedReason: string | undefined, requestId: string): void;
  /**
   * Reports an end the browser asked for (`reason`) and reads the session's cost from the service: once now (the
   * promise settles after that read, or after 2 s, and never rejects), then, while the service has not reported the
   * end yet, in the background for a while. The ledger is written in the background.
   */
  ended(sessionId: string, reason: string, requestId: string): Promise<void>;
  /** Reports the create calls that were refused. Returns `pending`. */
  observeCreate<T>(requestId: string, pending: Promise<T>): Promise<T>;
  probe(kind: 'health' | 'ready'): Promise<Probe>;
  usage(query: Record<string, unknown> | undefined): Promise<UsageReport>;
}

export interface OpsOptions {
  store?: ProxyStore;
  metrics?: MetricsOptions | false;
  log: ProxyLog;
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    (t as { unref?: () => void }).unref?.();
  });

const storeFault = (e: unknown): 'timeout' | 'error' => {
  const cause = e instanceof StoreUnavailable ? e.cause : e;
  return cause instanceof Error && /did not answer/.test(cause.message) ? 'timeout' : 'error';
};

/** Maps a final status (and the proxy's own record of the end) to an end reason. */
export function endReasonOf(status: SessionStatusResponse['session_status'], proxyReason: string | undefined): string {
  if (status === 'FAILED') return 'service_failed';
  if (status === 'TIMED_OUT') return 'service_timed_out';
  if (proxyReason === undefined) return 'service_ended';
  return proxyReason === 'ended' ? 'user' : proxyReason;
}

export function createOps(o: OpsOptions): Ops {
  const events = createProxyEvents();
  attachLogEvents(events, o.log);
  const base = o.store ?? memoryStore();
  const emit = (e: ProxyEvent) => events.emit(e);
  /** One `service.call` event: the call's route (never its id), status (0 when none came) and time since `t0`. */
  const serviceCall = (
    headers: HeadersInit | undefined,
    method: string,
    url: string,
    t0: number,
    status: number,
    error?: 'timeout' | 'network',
  ) =>
    emit({
      name: 'service.call',
      requestId: ridOf(headers),
      method,
      route: routeOf(url),
      status,
      ...(error ? { error } : {}),
      ms: performance.now() - t0,
    });
  const fault = (op: string) => (e: unknown) => {
    emit({ name: 'store.error', op, error: storeFault(e) });
    throw e;
  };
  const settling = new Set<string>();
  const seenActive = new Set<string>();
  /** Sessions this instance entered in the ledger already (a browser may read an ended status more than once). */
  const entered = new Set<string>();
  let service: ServiceClient | undefined;

  const ledger = observedLedger(base.ledger, fault, (sessionId, reason) => {
    // The proxy's own ends (max_duration, orphaned, …); `ended` is the browser's end or a status read, reported
    // by their call sites with the reason they know.
    if (reason !== 'ended' && reason !== '') void settle(sessionId, reason, false, `end-${crypto.randomUUID()}`);
  });
  const spend = observedSpend(base.spend ?? memorySpendLedger(), fault);
  const store = { limitStore: (name: string) => base.limitStore(name), ledger, spend };

  if (o.metrics !== false) {
    attachMetrics(events, o.metrics ?? {}, {
      async running() {
        const all = await base.ledger.allMembers();
        return all.filter((e) => !e.sessionId.startsWith(PENDING)).length;
      },
    });
  }

  /** Enters the end of `sessionId` in the ledger once (across instances) and reports it. */
  async function enter(requestId: string, sessionId: string, reason: string, cost: number | null, startedAt?: number) {
    if (entered.has(sessionId)) return;
    const meta = await spend.session(sessionId).catch(() => undefined);
    const now = Date.now();
    const from = meta?.startedAt ?? startedAt ?? now;
    const seconds = Math.max(0, Math.round((now - from) / 10) / 100);
    const entry = {
      sessionId,
      agent: meta?.agent ?? 'unknown',
      client: meta?.client ?? '-',
      startedAt: from,
      reason,
      credits: cost,
      seconds,
      endedAt: now,
    };
    if (entered.size >= SEEN_MAX) entered.delete(entered.values().next().value as string);
    entered.add(sessionId);
    // A store fault leaves the session to be entered by a later status read (here or on another instance).
    const first = await spend.enter(entry).catch((e: unknown) => {
      entered.delete(sessionId);
      throw e;
    });
    if (first) emit({ name: 'session.ended', requestId, sessionId, agent: entry.agent, reason, cost, seconds });
  }

  /**
   * Reads the cost of a session that ended for `reason` and enters it: once at once when `now` (the browser's end:
   * the service has usually reported it already), then in the background while the service has not.
   */
  async function settle(sessionId: string, reason: string, now: boolean, requestId: string): Promise<void> {
    if (settling.has(sessionId) || settling.size > SEEN_MAX) return;
    settling.add(sessionId);
    /** The end to enter (reason, cost) once the service reported it; undefined while it has not. */
    const ask = async (): Promise<[string, number | null] | undefined> => {
      const got = await service
        ?.getSession(sessionId)
        .catch((e: unknown) => (e instanceof LiveAiError && e.status === 404 ? null : undefined));
      if (got === null) return [reason, null];
      if (!got || !FINAL_STATUSES.includes(got.session_status)) return undefined;
      return [got.session_status === 'COMPLETED' ? reason : endReasonOf(got.session_status, reason), got.cost ?? null];
    };
    // The browser's end waits for one status read of at most READY_TIMEOUT_MS; the store is written in the background,
    // so neither a slow service nor a store fault holds up the end.
    const first = now
      ? await within(
          ask().catch(() => undefined),
          READY_TIMEOUT_MS,
        )
      : undefined;
    void (async () => {
      let end = first;
      for (const ms of first ? [] : SETTLE_DELAYS_MS) {
        await pause(ms);
        end = await ask();
        if (end) break;
      }
      if (end) await enter(requestId, sessionId, ...end);
    })()
      .catch(() => {})
      .finally(() => settling.delete(sessionId));
  }

  const ops: Ops = {
    events,
    store,
    timedExchange(exchange) {
      return (url, init, opts) => {
        const t0 = performance.now();
        const method = init.method ?? 'GET';
        return exchange(url, init, opts).then(
          (res: FetchedJson) => {
            serviceCall(init.headers, method, url, t0, res.status);
            return res;
          },
          (e: unknown) => {
            if (!(e instanceof LiveAiError && e.code === 'aborted')) {
              serviceCall(init.headers, method, url, t0, 0, e instanceof LiveAiError && e.code === 'timeout' ? 'timeout' : 'network');
            }
            throw e;
          },
        );
      };
    },
    timedFetch(f) {
      const inner = f ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
      const timed = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        const t0 = performance.now();
        const method = init?.method ?? 'GET';
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        try {
          const res = await inner(input, init);
          serviceCall(init?.headers, method, url, t0, res.status);
          return res;
        } catch (e) {
          const name = (e as { name?: string } | null)?.name;
          if (name !== 'AbortError' || !init?.signal?.aborted || init.signal.reason instanceof Error) {
            serviceCall(init?.headers, method, url, t0, 0, name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
          }
          throw e;
        }
      };
      return timed as typeof fetch;
    },
    useService(s) {
      service = s;
    },
    async created(c) {
      const agent = c.agent ?? 'custom_image';
      emit({ name: 'session.created', requestId: c.requestId, sessionId: c.sessionId, agent, transport: c.transport });
      await spend.open(c.sessionId, { agent, client: c.client ?? '-', startedAt: Date.now() }).catch(() => {});
    },
    status(sessionId, startedAt, status, endedReason, requestId) {
      const s = status.session_status;
      if (s === 'ACTIVE' && !seenActive.has(sessionId)) {
        if (seenActive.size >= SEEN_MAX) seenActive.delete(seenActive.values().next().value as string);
        seenActive.add(sessionId);
        const seconds = Math.max(0, Math.round((Date.now() - startedAt) / 10) / 100);
        void (async () => {
          if (!(await spend.once(sessionId, 'active'))) return;
          const meta = await spend.session(sessionId);
          emit({ name: 'session.active', requestId, sessionId, agent: meta?.agent ?? 'unknown', seconds });
        })().catch(() => {});
      }
      if (FINAL_STATUSES.includes(s)) {
        void enter(requestId, sessionId, endReasonOf(s, endedReason), status.cost ?? null, startedAt).catch(() => {});
      }
    },
    async ended(sessionId, reason, requestId) {
      await settle(sessionId, reason, true, requestId);
    },
    observeCreate(requestId, pending) {
      return pending.catch((e: unknown) => {
        const limit =
          refusalOf(e) ?? (e instanceof StoreUnavailable ? 'store_unavailable' : e instanceof ClientUnknown ? 'client_unknown' : undefined);
        if (limit !== undefined) emit({ name: 'create.refused', requestId, limit, status: e instanceof LiveAiError ? (e.status ?? 0) : 0 });
        throw e;
      });
    },
    probe: (kind) => (kind === 'health' ? Promise.resolve({ status: 200, body: { status: 'ok' } }) : ready()),
    usage: (query) => usageReport(spend, query),
  };

  let lastReady: { at: number; answer: Promise<Probe> } | undefined;
  function ready(): Promise<Probe> {
    const now = Date.now();
    if (lastReady && now - lastReady.at < READY_CACHE_MS) return lastReady.answer;
    const answer = (async (): Promise<Probe> => {
      const [svc, st] = await Promise.all([
        check(service ? service.listSessions({ page: 1, limit: 1 }) : Promise.reject(new Error('no service')), serviceFault),
        check(spend.ping(), (e) => (storeFault(e) === 'timeout' ? 'timeout' : 'unavailable')),
      ]);
      const ok = svc === 'ok' && st === 'ok';
      return { status: ok ? 200 : 503, body: { status: ok ? 'ready' : 'not_ready', service: svc, store: st } };
    })();
    lastReady = { at: now, answer };
    return answer;
  }
  return ops;
}

/** What `p` resolves to, or undefined after `ms`. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `ok`, or a word for what went wrong: never the error's text (it may name a host). */
async function check(p: Promise<unknown>, fault: (e: unknown) => string): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p.then(() => 'ok', fault), late]);
  } finally {
    clearTimeout(timer);
  }
}

const serviceFault = (e: unknown) =>
  e instanceof LiveAiError && (e.status === 401 || e.status === 403)
    ? 'refused'
    : e instanceof LiveAiError && e.code === 'timeout'
      ? 'timeout'
      : 'unavailable';

/** The `x-request-id` a service call carries (the service client sends the proxy's request id), or `-`. */
function ridOf(headers: HeadersInit | undefined): string {
  if (!headers) return '-';
  if (headers instanceof Headers) return headers.get('x-request-id') ?? '-';
  if (Array.isArray(headers)) return headers.find(([k]) => k.toLowerCase() === 'x-request-id')?.[1] ?? '-';
  return headers['x-request-id'] ?? '-';
}

function routeOf(url: string): string {
  const i = url.indexOf('/liveai/');
  return i < 0 ? 'other' : serviceRoute(url.slice(i));
}

function observedLedger(
  l: SessionLedger,
  fault: (op: string) => (e: unknown) => never,
  onFinish: (sessionId: string, reason: string) => void,
): SessionLedger {
  return {
    reserve: (...a) => l.reserve(...a).catch(fault('reserve')),
    commit: (...a) => l.commit(...a).catch(fault('commit')),
    release: (...a) => l.release(...a).catch(fault('release')),
    refund: (...a) => l.refund(...a).catch(fault('refund')),
    rebuild: (...a) => l.rebuild(...a).catch(fault('rebuild')),
    claim: (...a) => l.claim(...a).catch(fault('claim')),
    members: (...a) => l.members(...a).catch(fault('members')),
    allMembers: () => l.allMembers().catch(fault('all_members')),
    due: (...a) => l.due(...a).catch(fault('due')),
    finish: (sessionId, reason, ttlMs, client) =>
      l.finish(sessionId, reason, ttlMs, client).then(() => onFinish(sessionId, reason), fault('finish')),
    endedReason: (...a) => l.endedReason(...a).catch(fault('ended_reason')),
  };
}

function observedSpend(s: SpendLedger, fault: (op: string) => (e: unknown) => never): SpendLedger {
  return {
    open: (...a) => s.open(...a).catch(fault('spend_open')),
    session: (...a) => s.session(...a).catch(fault('spend_session')),
    once: (...a) => s.once(...a).catch(fault('spend_once')),
    enter: (...a) => s.enter(...a).catch(fault('spend_enter')),
    days: (...a) => s.days(...a).catch(fault('spend_days')),
    recent: (...a) => s.recent(...a).catch(fault('spend_recent')),
    ping: () => s.ping().catch(fault('ping')),
  };
}

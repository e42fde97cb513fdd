import { LiveAiError } from '../core/errors';
import { FINAL_STATUSES } from '../core/schemas/plain';
import type { ServiceClient } from './service-client';
import { createLimiter, WindowStore } from './fetch-limiter';
import type { ProxyLog } from './logging';
import type { ResolvedOptions } from './options';
import { memoryStore, type ProxyStore } from './store';

/** How long an ended session's tokens still read its status, ms. */
const ENDED_TTL_MS = 24 * 3600_000;
/** A reservation made before the service answers lives this long past the upstream time limit, ms. */
const PENDING_SLACK_MS = 60_000;
/** How often the proxy looks for sessions past their maximum length, ms. */
const SWEEP_MS = 5_000;
const PENDING = 'pending:';
/** Attached sessions remembered as entered in the ledger, per proxy instance. */
const ADOPTED_MAX = 10_000;

/** A slot taken for one create call; hand it back with `created` or `failed`. */
export interface Reservation {
  client: string;
  member: string;
}

/** The proxy's counters: per-session rate, create budget, running sessions per client, deadlines, ended sessions. */
export interface Guard {
  store: ProxyStore;
  /** Per-session rate limit; only called once the token is known valid. @throws 429 `rate_limited`. */
  sessionHit(sessionId: string): Promise<void>;
  /** Create budget and running-session cap of `client`. @throws 429 `rate_limited`. */
  reserve(client: string, requestId: string): Promise<Reservation | undefined>;
  /** The create succeeded: counts the session as running and schedules its end. Returns when it will be ended. */
  created(r: Reservation | undefined, sessionId: string): Promise<{ session_expires_at?: string }>;
  /** The create failed: frees the slot. */
  failed(r: Reservation | undefined): Promise<void>;
  /** Ends `sessionId` at the service (best effort, logged) and records why. */
  endSession(sessionId: string, reason: string, requestId: string, client?: string): Promise<void>;
  /** Records an end the browser asked for (frees the client's slot when `client` started it). */
  ended(sessionId: string, reason: string, client?: string): Promise<void>;
  endedReason(sessionId: string): Promise<string | undefined>;
  /**
   * Gives an attached session (one `issueClientToken` made a handle for) the bounds of a created one, on the first
   * call of each proxy instance: a slot in `client`'s running sessions and an end at `startedAt` + the maximum
   * length; one already past it is ended now.
   * @throws 429 `rate_limited` when the client runs its maximum already; 403 `forbidden` when it is past its end.
   */
  adopt(sessionId: string, startedAt: number, requestId: string, client?: string): Promise<void>;
  /** Ends every session past its maximum length (also runs every few seconds). */
  sweep(): Promise<void>;
}

/** A 429 with the seconds to wait; the adapters send them as `Retry-After`. */
export class RateLimited extends LiveAiError {
  constructor(
    detail: string,
    readonly retryAfterS: number,
  ) {
    super('rate_limited', detail, { status: 429 });
  }
}

export function createGuard<Req>(options: ResolvedOptions<Req>, upstream: ServiceClient, log: ProxyLog): Guard {
  const store = options.store ?? memoryStore();
  const ledger = store.ledger;
  const caps = options.sessionCaps;
  const limits = options.limits;
  const rlStore =
    limits === false
      ? undefined
      : typeof limits.store === 'function'
        ? limits.store('session')
        : (limits.store ?? (options.store ? store.limitStore('session') : new WindowStore()));
  const perSession = limits && rlStore ? createLimiter(rlStore, limits.windowMs, limits.perSession) : undefined;
  const createBudget = caps ? createLimiter(store.limitStore('create'), caps.createWindowMs, caps.createsPerWindow) : undefined;
  const pendingMs = (options.upstream.timeoutMs ?? 15_000) + PENDING_SLACK_MS;
  /** Attached sessions this instance has entered in the ledger already (ids; oldest dropped past the limit). */
  const adopted = new Set<string>();

  async function endSession(sessionId: string, reason: string, requestId: string, client?: string) {
    await ledger.markEnded(sessionId, reason, ENDED_TTL_MS);
    if (client !== undefined) {
      await ledger.release(client, sessionId);
      await ledger.unschedule({ client, sessionId });
    }
    try {
      await upstream.control(sessionId, { event: 'terminate' }, { requestId });
      log.warn({ reqId: requestId, sessionId, reason }, 'avatar proxy ended a session');
    } catch (e) {
      const status = e instanceof LiveAiError ? e.status : undefined;
      log.error(
        { reqId: requestId, sessionId, reason, status, code: e instanceof LiveAiError ? e.code : 'internal' },
        'avatar proxy could not end a session',
      );
    }
  }

  /** Frees the slots of the client's sessions that the service says are over. */
  async function refresh(client: string) {
    for (const id of await ledger.members(client)) {
      if (id.startsWith(PENDING)) continue;
      const over =
        (await ledger.endedReason(id)) !== undefined ||
        (await upstream.getSession(id).then(
          (s) => FINAL_STATUSES.includes(s.session_status),
          (e: unknown) => e instanceof LiveAiError && e.status === 404,
        ));
      if (over) {
        await ledger.release(client, id);
        await ledger.unschedule({ client, sessionId: id });
      }
    }
  }

  const guard: Guard = {
    store,
    async sessionHit(sessionId) {
      const wait = perSession ? await perSession.hit(`session:${sessionId}`) : 0;
      if (wait > 0) throw new RateLimited(`Too many requests; try again in ${wait} s`, wait);
    },
    async reserve(client, requestId) {
      if (!caps) return undefined;
      const wait = createBudget ? await createBudget.hit(`create:${client}`) : 0;
      if (wait > 0) throw new RateLimited(`Too many sessions started from this address; try again in ${wait} s`, wait);
      const member = `${PENDING}${requestId}:${crypto.randomUUID()}`;
      const expires = Date.now() + pendingMs;
      if (await ledger.reserve(client, member, caps.maxConcurrent, expires)) return { client, member };
      await refresh(client);
      if (await ledger.reserve(client, member, caps.maxConcurrent, expires)) return { client, member };
      throw new RateLimited(`At most ${caps.maxConcurrent} sessions may run at once from this address; end one first`, 30);
    },
    async created(r, sessionId) {
      if (!caps || !r) return {};
      const endAt = Date.now() + caps.maxDurationMs;
      await ledger.rename(r.client, r.member, sessionId, endAt + PENDING_SLACK_MS);
      await ledger.schedule({ client: r.client, sessionId }, endAt);
      return { session_expires_at: new Date(endAt).toISOString() };
    },
    async failed(r) {
      if (r) await ledger.release(r.client, r.member);
    },
    endSession,
    async ended(sessionId, reason, client) {
      await ledger.markEnded(sessionId, reason, ENDED_TTL_MS);
      if (client !== undefined) {
        await ledger.release(client, sessionId);
        await ledger.unschedule({ client, sessionId });
      }
    },
    endedReason: (sessionId) => ledger.endedReason(sessionId),
    async adopt(sessionId, startedAt, requestId, client) {
      if (!caps || adopted.has(sessionId)) return;
      const endAt = startedAt + caps.maxDurationMs;
      if (endAt <= Date.now()) {
        await endSession(sessionId, 'max_duration', requestId, client);
        throw new LiveAiError('forbidden', 'This session has ended; its token can only read its status', { status: 403 });
      }
      if (client !== undefined) {
        const full = async () => !(await ledger.reserve(client, sessionId, caps.maxConcurrent, endAt + PENDING_SLACK_MS));
        if ((await full()) && (await refresh(client), await full())) {
          throw new RateLimited(`At most ${caps.maxConcurrent} sessions may run at once from this address; end one first`, 30);
        }
      }
      await ledger.schedule({ client: client ?? '', sessionId }, endAt);
      if (adopted.size >= ADOPTED_MAX) adopted.delete(adopted.values().next().value as string);
      adopted.add(sessionId);
    },
    async sweep() {
      for (const e of await ledger.due(Date.now())) await endSession(e.sessionId, 'max_duration', `sweep-${crypto.randomUUID()}`, e.client);
    },
  };
  if (caps) {
    const timer = setInterval(
      () => {
        guard.sweep().catch((e: unknown) => log.error({ err: e instanceof Error ? e.message : String(e) }, 'avatar proxy sweep failed'));
      },
      Math.min(SWEEP_MS, caps.maxDurationMs),
    );
    timer.unref?.();
  }
  return guard;
}

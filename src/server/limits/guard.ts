import { FINAL_STATUSES, LiveAiError } from '../../core/index';
import type { ServiceClient } from '../service/client';
import { createLimiter, WindowStore } from '../adapters/fetch/limiter';
import type { ProxyLog } from '../logging';
import { refused } from '../ops/events';
import type { ResolvedOptions } from '../options';
import { dayOf, memoryStore, windowOf, type LedgerEntry, type ProxyStore, type ReserveLimits, type ReserveRefusal } from './store';

/** How long an ended session's tokens still read its status, ms. */
const ENDED_TTL_MS = 24 * 3600_000;
/** A reservation made before the service answers lives this long past the upstream time limit, ms. */
const PENDING_SLACK_MS = 60_000;
/** How often the proxy looks for sessions past their maximum length, ms. */
const SWEEP_MS = 5_000;
const PENDING = 'pending:';
/** Attached sessions remembered as entered in the ledger, per proxy instance. */
const ADOPTED_MAX = 10_000;
/** A deadline handed to a sweep comes due again after this long unless the session was ended, ms. */
const SWEEP_LEASE_MS = 30_000;
/** Without `sessionLimits`, a running session holds its place under the owner's ceiling at most this long, ms. */
const OWNER_ONLY_SLOT_MS = 24 * 3600_000;
/** `Retry-After` of a refusal for a running-session cap, s. */
const RUNNING_RETRY_S = 30;

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
  /**
   * Create budget and running-session cap of `client`, and the owner's ceilings (all clients together).
   * @throws 429 `rate_limited` (the client's limits), 503 (the owner's ceilings, or the store is unavailable).
   */
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

/**
 * A 429 (this client's limits) or 503 (the owner's ceilings: the site is busy for everyone) with the seconds to
 * wait; the adapters send them as `Retry-After`.
 */
export class RateLimited extends LiveAiError {
  constructor(
    detail: string,
    readonly retryAfterS: number,
    status: 429 | 503 = 429,
  ) {
    super(status === 429 ? 'rate_limited' : 'upstream_error', detail, { status });
  }
}

type Caps = Exclude<ResolvedOptions<unknown>['sessionCaps'], false>;

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
  const owner = options.ownerCaps;
  const pendingMs = (options.upstream.timeoutMs ?? 15_000) + PENDING_SLACK_MS;
  /** Attached sessions this instance has entered in the ledger already (ids; oldest dropped past the limit). */
  const adopted = new Set<string>();
  // Without per-client limits, the owner's ceilings still count every session (the client's own are unbounded).
  const unbounded = { maxConcurrent: Number.MAX_SAFE_INTEGER, createsPerWindow: Number.MAX_SAFE_INTEGER, createWindowMs: 3600_000 };
  const limitsOf = (c: Caps | false) => ({
    ...(c ? { maxConcurrent: c.maxConcurrent, createsPerWindow: c.createsPerWindow, createWindowMs: c.createWindowMs } : unbounded),
    ...(owner
      ? {
          owner: {
            maxConcurrent: owner.maxConcurrent,
            createsPerWindow: owner.createsPerWindow,
            createWindowMs: owner.createWindowMs,
            ...(c ? { minutesPerDay: owner.minutesPerDay } : {}),
            minutesCharge: c ? Math.ceil(c.maxDurationMs / 60_000) : 0,
          },
        }
      : {}),
  });

  /**
   * Ends `sessionId` at the service and records why. The service comes first: a store fault must not keep a
   * session running. A store fault after it is logged; a due deadline then comes back after its lease.
   */
  async function endSession(sessionId: string, reason: string, requestId: string, client?: string) {
    // The ended lock first, when the store can, so the session's token stops controlling it at once.
    const locked = await ledger.finish(sessionId, reason, ENDED_TTL_MS).then(
      () => true,
      () => false,
    );
    try {
      await upstream.control(sessionId, { event: 'terminate' }, { requestId });
      log.warn({ reqId: requestId, sessionId, reason }, 'avatar proxy ended a session');
    } catch (e) {
      const status = e instanceof LiveAiError ? e.status : undefined;
      log.error(
        { reqId: requestId, sessionId, reason, status, code: e instanceof LiveAiError ? e.code : 'internal' },
        'avatar proxy could not end a session',
      );
      // A session the service does not know (404) or already ended (409) is over; anything else is tried again.
      if (status !== 404 && status !== 409) throw e;
    }
    if (!locked || client !== undefined) await ledger.finish(sessionId, reason, ENDED_TTL_MS, client);
  }

  /** Frees the slots of sessions that the service says are over. */
  async function refresh(entries: LedgerEntry[]) {
    for (const { client, sessionId: id } of entries) {
      if (id.startsWith(PENDING)) continue;
      const over =
        (await ledger.endedReason(id)) !== undefined ||
        (await upstream.getSession(id).then(
          (s) => FINAL_STATUSES.includes(s.session_status),
          (e: unknown) => e instanceof LiveAiError && e.status === 404,
        ));
      if (over) await ledger.release(client, id);
    }
  }

  /**
   * `ledger.reserve`, and once more after freeing the places of sessions the service says are over: sessions that
   * ended on their own (idle timeout, an error) still hold places until the service says so.
   */
  async function reserveFreeing(client: string, member: string, expires: number, limits: ReserveLimits) {
    const got = await ledger.reserve(client, member, expires, limits);
    if (got !== 'client_running' && got !== 'owner_running') return got;
    await refresh(
      got === 'client_running' ? (await ledger.members(client)).map((sessionId) => ({ client, sessionId })) : await ledger.allMembers(),
    );
    return ledger.reserve(client, member, expires, limits);
  }

  const refusal = (why: ReserveRefusal, c: Caps | false): RateLimited => {
    const now = Date.now();
    const inS = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    switch (why) {
      case 'client_running':
        return new RateLimited(
          `At most ${c ? c.maxConcurrent : 0} sessions may run at once from this address; end one first`,
          RUNNING_RETRY_S,
        );
      case 'client_creates': {
        const wait = inS(windowOf(now, c ? c.createWindowMs : unbounded.createWindowMs).leftMs);
        return new RateLimited(`Too many sessions started from this address; try again in ${wait} s`, wait);
      }
      case 'owner_running':
        return new RateLimited(
          'This site is running as many avatar sessions as it allows; try again in a few minutes',
          RUNNING_RETRY_S,
          503,
        );
      case 'owner_creates': {
        const wait = inS(windowOf(now, owner ? owner.createWindowMs : unbounded.createWindowMs).leftMs);
        return new RateLimited(`This site has started as many avatar sessions as it allows for now; try again in ${wait} s`, wait, 503);
      }
      case 'owner_minutes': {
        const wait = inS(dayOf(now).leftMs);
        return new RateLimited("This site has used today's avatar minutes; try again tomorrow (UTC)", wait, 503);
      }
    }
  };

  const guard: Guard = {
    store,
    async sessionHit(sessionId) {
      const wait = perSession ? await perSession.hit(`session:${sessionId}`) : 0;
      if (wait > 0) throw new RateLimited(`Too many requests; try again in ${wait} s`, wait);
    },
    async reserve(client, requestId) {
      if (!caps && !owner) return undefined;
      const member = `${PENDING}${requestId}:${crypto.randomUUID()}`;
      const expires = Date.now() + pendingMs;
      const limits = limitsOf(caps);
      const got = await reserveFreeing(client, member, expires, limits);
      if (got !== 'ok') throw refused(refusal(got, caps), got);
      return { client, member };
    },
    async created(r, sessionId) {
      if (!r) return {};
      if (!caps) {
        // No maximum length: no deadline; the place is freed by /end, or once the service says the session is over.
        await ledger.commit(r.client, r.member, sessionId, Date.now() + OWNER_ONLY_SLOT_MS, -1);
        return {};
      }
      const endAt = Date.now() + caps.maxDurationMs;
      await ledger.commit(r.client, r.member, sessionId, endAt + PENDING_SLACK_MS, endAt);
      return { session_expires_at: new Date(endAt).toISOString() };
    },
    async failed(r) {
      if (r) await ledger.release(r.client, r.member);
    },
    endSession,
    async ended(sessionId, reason, client) {
      await ledger.finish(sessionId, reason, ENDED_TTL_MS, client);
    },
    endedReason: (sessionId) => ledger.endedReason(sessionId),
    async adopt(sessionId, startedAt, requestId, client) {
      if (!caps || adopted.has(sessionId)) return;
      const endAt = startedAt + caps.maxDurationMs;
      if (endAt <= Date.now()) {
        await endSession(sessionId, 'max_duration', requestId, client);
        throw new LiveAiError('forbidden', 'This session has ended; its token can only read its status', { status: 403 });
      }
      // An attached session holds a running place of its browser (or, when the browser is not known, one of its
      // own) and of the owner, and ends at the maximum length; the app's server created it, so the create budgets
      // and the owner's minutes are not charged again.
      const who = client ?? `attached:${sessionId}`;
      const member = `${PENDING}attach:${crypto.randomUUID()}`;
      const all = limitsOf(caps);
      const limits = {
        ...all,
        createsPerWindow: Number.MAX_SAFE_INTEGER,
        ...(all.owner ? { owner: { ...all.owner, createsPerWindow: undefined, minutesPerDay: undefined, minutesCharge: 0 } } : {}),
      };
      const expires = endAt + PENDING_SLACK_MS;
      const got = await reserveFreeing(who, member, expires, limits);
      if (got !== 'ok') throw refusal(got, caps);
      await ledger.commit(who, member, sessionId, expires, endAt);
      if (adopted.size >= ADOPTED_MAX) adopted.delete(adopted.values().next().value as string);
      adopted.add(sessionId);
    },
    async sweep() {
      for (const e of await ledger.due(Date.now(), SWEEP_LEASE_MS)) {
        // One session's failure must not stop the others; its deadline comes back after the lease.
        await endSession(e.sessionId, 'max_duration', `sweep-${crypto.randomUUID()}`, e.client).catch((err: unknown) =>
          log.error({ sessionId: e.sessionId, err: err instanceof Error ? err.message : String(err) }, 'avatar proxy sweep failed'),
        );
      }
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

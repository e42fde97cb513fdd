import { isFinalStatus, LiveAiError, MAX_PAGINATION_OFFSET, type SessionListItem } from '../../core/index';
import type { ServiceClient } from '../service/client';
import { createLimiter, WindowStore } from '../adapters/fetch/limiter';
import type { ProxyLog } from '../logging';
import { refused } from '../ops/events';
import type { ResolvedOptions } from '../options';
import { frozenPlatform, type Background } from '../platform';
import {
  dayOf,
  FOUND_CLIENT,
  memoryStore,
  type FoundSession,
  type LedgerEntry,
  type ProxyStore,
  type ReserveLimits,
  type ReserveResult,
} from './store';

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
/** A running session found at the service holds its place this long unless a later count finds it again, ms. */
const FOUND_SLOT_MS = 24 * 3600_000;
/** Counts of the running sessions at the service (after a refusal for a running cap) start at most this often, ms. */
const RECOUNT_EVERY_MS = 10_000;
/** Longest wait of a create for the first count of the running sessions (after a restart or a lost store), ms. */
const COUNT_WAIT_MS = 10_000;
/** Longest a count of the running sessions may take before it is given up, ms. */
const COUNT_ABORT_MS = 60_000;
/** `Retry-After` when the running sessions cannot be counted, s. */
const COUNT_RETRY_S = 10;
/** Page size of the service's session list when counting. */
const LIST_LIMIT = 100;

/** A slot taken for one create call; hand it back with `created` or `failed`. */
export interface Reservation {
  client: string;
  member: string;
  /** When it was taken, ms since epoch, and the minutes it charged the owner's daily budget. */
  at: number;
  minutesCharge: number;
}

/** The proxy's counters: per-session rate, create budget, running sessions per client, deadlines, ended sessions. */
export interface Guard {
  store: ProxyStore;
  /** Per-session rate limit; only called once the token is known valid. @throws 429 `rate_limited`. */
  sessionHit(sessionId: string): Promise<void>;
  /**
   * Create budget and running-session cap of `client`, and the owner's ceilings (all clients together). When
   * the store does not know what runs (a new process, a lost store), first counts the account's running sessions
   * at the service.
   * @throws 429 `rate_limited` (the client's limits), 503 (the owner's ceilings, the store is unavailable, or the
   *   running sessions cannot be counted).
   */
  reserve(client: string, requestId: string): Promise<Reservation | undefined>;
  /** The create succeeded: counts the session as running and schedules its end. Returns when it will be ended. */
  created(r: Reservation | undefined, sessionId: string): Promise<{ session_expires_at?: string }>;
  /**
   * The create failed: frees the slot. `refused`: the service refused it (4xx), so no session was made: the
   * create also gives back its place in the create windows and its minutes.
   */
  failed(r: Reservation | undefined, refused?: boolean): Promise<void>;
  /** Ends `sessionId` at the service (best effort, logged) and records why. */
  endSession(sessionId: string, reason: string, requestId: string, client?: string): Promise<void>;
  /** Records an end the browser asked for (frees the client's slot when `client` started it). */
  ended(sessionId: string, reason: string, client?: string): Promise<void>;
  endedReason(sessionId: string): Promise<string | undefined>;
  /**
   * Gives an attached session (one `issueClientToken` made a handle for) the bounds of a created one, on the first
   * call of each proxy instance: a slot in `client`'s running sessions and an end at `endAt` (its deadline, ms
   * since epoch); one already past it is ended now.
   * @throws 429 `rate_limited` when the client runs its maximum already; 403 `forbidden` when it is past its end.
   */
  adopt(sessionId: string, endAt: number, requestId: string, client?: string): Promise<void>;
  /**
   * Counts a running session the proxy created under `client` again (the client sealed in its handle), when the
   * store does not hold it there (it lost its data, is new, or a count at the service found the session without
   * knowing its browser): the browser's next call rebuilds its client's running-session count. `deadline`: its
   * end, ms since epoch (the sweep ends it then). Never refuses. Returns why the session ended, or undefined while
   * it may still run (as `endedReason`, in the same store step).
   */
  claim(sessionId: string, client: string, deadline: number | undefined): Promise<string | undefined>;
  /**
   * Counts the account's running sessions at the service and brings the ledger in line (frees the places of
   * sessions that are over, counts running ones it did not hold). Runs at most one at a time.
   */
  recount(): Promise<void>;
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

const uncountable = () =>
  new RateLimited('The avatar proxy cannot count the running avatar sessions right now; try again in a moment', COUNT_RETRY_S, 503);

/** @param background runs work nobody awaits (the periodic sweep); default: a floating promise whose failure is dropped. */
export function createGuard<Req>(
  options: ResolvedOptions<Req>,
  upstream: ServiceClient,
  log: ProxyLog,
  background: Background = (work) => void work.catch(() => {}),
): Guard {
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
  const limitsOf = (c: Caps | false): ReserveLimits => ({
    ...(c
      ? {
          maxConcurrent: c.maxConcurrent,
          createsPerWindow: c.createsPerWindow,
          createWindowMs: c.createWindowMs,
          ...(c.minutesPerDay !== undefined ? { minutesPerDay: c.minutesPerDay, minutesCharge: Math.ceil(c.maxDurationMs / 60_000) } : {}),
        }
      : unbounded),
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
    // The service first, and the ended mark (which frees the session's place) only once it is over there: a mark
    // written before a terminate that failed would free the place of a session still running, letting its client
    // start one more than its cap. Its token cannot control it meanwhile: past its deadline, the deadline sealed in
    // its handle refuses that, whatever the store holds.
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
    await ledger.finish(sessionId, reason, ENDED_TTL_MS, client);
  }

  /** Every session the service lists for the account (paged), and whether the list reached its end. */
  async function listAll(signal?: AbortSignal) {
    const items: SessionListItem[] = [];
    const requestId = `count-${crypto.randomUUID()}`;
    for (let page = 1; (page - 1) * LIST_LIMIT <= MAX_PAGINATION_OFFSET; page++) {
      const { sessions, pagination } = await upstream.listSessions({ page, limit: LIST_LIMIT }, { signal, requestId });
      items.push(...sessions);
      if (!pagination.has_more || sessions.length === 0) return { items, complete: true };
    }
    return { items, complete: false };
  }

  /**
   * Brings the ledger in line with the service's list of running sessions: frees the places of sessions that are
   * over, and counts running ones the ledger does not hold (after a restart or a lost store; or sessions started
   * with the same API key elsewhere) under the owner's ceiling. With `ownerLimits.endFoundSessions` those are also
   * ended once past the maximum length since their creation.
   */
  async function count(signal?: AbortSignal) {
    const before = await ledger.allMembers();
    const listed = await listAll(signal);
    const after = await ledger.allMembers();
    const now = Date.now();
    const over = new Set(listed.items.filter((s) => isFinalStatus(s.session_status)).map((s) => s.session_id));
    const running = new Set(listed.items.filter((s) => !over.has(s.session_id)).map((s) => s.session_id));
    const held = (e: LedgerEntry) => !e.sessionId.startsWith(PENDING) && e.client !== FOUND_CLIENT;
    const known = new Set([...before, ...after].filter(held).map((e) => e.sessionId));
    for (const e of before) {
      if (e.sessionId.startsWith(PENDING)) continue;
      // A list cut at the service's offset limit says nothing of the sessions it did not reach.
      const ended = over.has(e.sessionId) || (listed.complete && !running.has(e.sessionId));
      if (ended || (e.client === FOUND_CLIENT && known.has(e.sessionId))) await ledger.release(e.client, e.sessionId);
    }
    if (!listed.complete) log.warn({ listed: listed.items.length }, 'avatar proxy counted only the newest sessions the service lists');
    const found: FoundSession[] = listed.items
      .filter((s) => running.has(s.session_id) && !known.has(s.session_id))
      .map((s) => {
        const created = Date.parse(s.created_at);
        const endAt =
          owner && owner.endFoundSessions && caps ? Math.max(now, (Number.isNaN(created) ? now : created) + caps.maxDurationMs) : -1;
        return { sessionId: s.session_id, expiresAt: now + FOUND_SLOT_MS, endAt };
      });
    const windowMs = owner ? owner.createWindowMs : 3600_000;
    const creates = listed.items.map((s) => Date.parse(s.created_at)).filter((t) => t > now - windowMs && t <= now);
    await ledger.rebuild(found, creates, windowMs);
    if (found.length > 0) log.warn({ found: found.length }, 'avatar proxy counted running sessions it did not hold');
  }

  let counting: Promise<void> | undefined;
  let lastCount = 0;
  let lastFailure = 0;
  /** One count at a time; `count()` again joins the one under way. */
  function recount(): Promise<void> {
    if (!counting) {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), COUNT_ABORT_MS);
      counting = count(ac.signal).finally(() => {
        clearTimeout(timer);
        counting = undefined;
      });
    }
    return counting;
  }
  /**
   * Frees the places of `entries` whose session the store knows ended (an end from another address than the
   * creator's); true when it freed any. Found sessions are freed by the end itself, and are skipped.
   */
  async function freeEnded(entries: LedgerEntry[]) {
    let freed = false;
    for (const { client, sessionId } of entries) {
      if (sessionId.startsWith(PENDING) || client === FOUND_CLIENT) continue;
      if ((await ledger.endedReason(sessionId)) === undefined) continue;
      await ledger.release(client, sessionId);
      freed = true;
    }
    return freed;
  }

  /**
   * A refusal for a running cap may be stale (sessions end on their own at the service). At most once every
   * {@link RECOUNT_EVERY_MS}, the refused request starts a count (one paged list call) and waits for it (bounded);
   * every other refused request is answered at once, with no call to the service.
   */
  async function recounted(): Promise<boolean> {
    if (counting || Date.now() - lastCount < RECOUNT_EVERY_MS) return false;
    lastCount = Date.now();
    try {
      await withinCountWait(recount());
      return true;
    } catch (e) {
      log.error({ err: e instanceof Error ? e.message : String(e) }, 'avatar proxy could not count the running sessions');
      return false;
    }
  }

  async function withinCountWait(p: Promise<void>) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the count took longer than ${COUNT_WAIT_MS} ms`)), COUNT_WAIT_MS);
    });
    try {
      await Promise.race([p, wait]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * `ledger.reserve`; when the store does not know what runs, after counting the running sessions at the service
   * (the create waits for it; fails closed when it cannot); refused for a running cap, once more after a fresh
   * count when one is due.
   */
  async function reserveCounted(client: string, member: string, expires: number, limits: ReserveLimits): Promise<ReserveResult> {
    const got = await ledger.reserve(client, member, expires, limits);
    if (got === 'ok') return got;
    if (got.refused === 'client_running' || got.refused === 'owner_running') {
      // Sessions ended through the proxy (perhaps by another address) are known to the store: no service call.
      const freed = await freeEnded(
        got.refused === 'client_running'
          ? (await ledger.members(client)).map((sessionId) => ({ client, sessionId }))
          : await ledger.allMembers(),
      );
      return freed || (await recounted()) ? ledger.reserve(client, member, expires, limits) : got;
    }
    if (got.refused !== 'uncounted') return got;
    // After a failed count, creates are refused at once for a while: no service call per refused create.
    if (Date.now() - lastFailure < COUNT_RETRY_S * 1000) throw uncountable();
    try {
      await withinCountWait(recount());
    } catch (e) {
      lastFailure = Date.now();
      log.error({ err: e instanceof Error ? e.message : String(e) }, 'avatar proxy could not count the running sessions');
      throw uncountable();
    }
    const again = await ledger.reserve(client, member, expires, limits);
    if (again !== 'ok' && again.refused === 'uncounted') throw uncountable();
    return again;
  }

  async function claim(sessionId: string, client: string, deadline: number | undefined): Promise<string | undefined> {
    if (!caps && !owner) return ledger.endedReason(sessionId);
    // As `created` holds a session: until its deadline (and a little), or without one, for the owner-only slot.
    const expires = caps && deadline !== undefined ? deadline + PENDING_SLACK_MS : Date.now() + OWNER_ONLY_SLOT_MS;
    const endAt = caps && deadline !== undefined ? deadline : -1;
    const got = await ledger.claim(client, sessionId, expires, endAt);
    if (got.counted) log.info({ sessionId }, 'avatar proxy counted a running session again');
    return got.ended;
  }

  const refusal = (got: Exclude<ReserveResult, 'ok'>, c: Caps | false): RateLimited => {
    const inS = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    const wait = inS(got.retryAfterMs ?? RUNNING_RETRY_S * 1000);
    switch (got.refused) {
      case 'client_running':
        return new RateLimited(
          `At most ${c ? c.maxConcurrent : 0} sessions may run at once from this address; end one first`,
          RUNNING_RETRY_S,
        );
      case 'client_creates':
        return new RateLimited(`Too many sessions started from this address; try again in ${wait} s`, wait);
      case 'client_minutes':
        return new RateLimited("This address has used today's avatar minutes; try again tomorrow (UTC)", inS(dayOf(Date.now()).leftMs));
      case 'owner_running':
        return new RateLimited(
          'This site is running as many avatar sessions as it allows; try again in a few minutes',
          RUNNING_RETRY_S,
          503,
        );
      case 'owner_creates':
        return new RateLimited(`This site has started as many avatar sessions as it allows for now; try again in ${wait} s`, wait, 503);
      case 'owner_minutes':
        return new RateLimited("This site has used today's avatar minutes; try again tomorrow (UTC)", inS(dayOf(Date.now()).leftMs), 503);
      case 'uncounted':
        return uncountable();
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
      const at = Date.now();
      const limits = limitsOf(caps);
      const got = await reserveCounted(client, member, at + pendingMs, limits);
      if (got !== 'ok') throw refused(refusal(got, caps), got.refused);
      // The same charge (the maximum length) for the owner's and the client's daily budgets, where each is on.
      const charged = limits.owner?.minutesPerDay !== undefined || limits.minutesPerDay !== undefined;
      return { client, member, at, minutesCharge: charged && caps ? Math.ceil(caps.maxDurationMs / 60_000) : 0 };
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
    async failed(r, refused) {
      if (!r) return;
      if (refused) await ledger.refund(r.client, r.member, r.at, r.minutesCharge);
      else await ledger.release(r.client, r.member);
    },
    endSession,
    async ended(sessionId, reason, client) {
      await ledger.finish(sessionId, reason, ENDED_TTL_MS, client);
    },
    endedReason: (sessionId) => ledger.endedReason(sessionId),
    claim,
    async adopt(sessionId, endAt, requestId, client) {
      if (!caps) return;
      // Counted by this instance already: counted again only if the store lost it meanwhile.
      if (adopted.has(sessionId)) {
        await claim(sessionId, client ?? `attached:${sessionId}`, endAt);
        return;
      }
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
      const limits: ReserveLimits = {
        ...all,
        createsPerWindow: Number.MAX_SAFE_INTEGER,
        minutesPerDay: undefined,
        minutesCharge: 0,
        ...(all.owner ? { owner: { ...all.owner, createsPerWindow: undefined, minutesPerDay: undefined, minutesCharge: 0 } } : {}),
      };
      const expires = endAt + PENDING_SLACK_MS;
      // A count at the service may have found it before its browser came: it holds one place, not two.
      const found = (await ledger.members(FOUND_CLIENT)).includes(sessionId);
      if (found) await ledger.release(FOUND_CLIENT, sessionId);
      const got = await reserveCounted(who, member, expires, limits);
      if (got !== 'ok') {
        const place = { sessionId, expiresAt: Date.now() + FOUND_SLOT_MS, endAt: -1 };
        if (found) await ledger.rebuild([place], [], owner ? owner.createWindowMs : 3600_000);
        throw refusal(got, caps);
      }
      await ledger.commit(who, member, sessionId, expires, endAt);
      if (adopted.size >= ADOPTED_MAX) adopted.delete(adopted.values().next().value as string);
      adopted.add(sessionId);
    },
    recount,
    async sweep() {
      for (const e of await ledger.due(Date.now(), SWEEP_LEASE_MS)) {
        // One session's failure must not stop the others; its deadline comes back after the lease.
        await endSession(e.sessionId, 'max_duration', `sweep-${crypto.randomUUID()}`, e.client).catch((err: unknown) =>
          log.error({ sessionId: e.sessionId, err: err instanceof Error ? err.message : String(err) }, 'avatar proxy sweep failed'),
        );
      }
    },
  };
  // Where functions stop after their response no timer survives it: the sweep comes from a scheduler there.
  if (caps && !frozenPlatform()) {
    const timer = setInterval(
      () => {
        background(
          guard.sweep().catch((e: unknown) => log.error({ err: e instanceof Error ? e.message : String(e) }, 'avatar proxy sweep failed')),
        );
      },
      Math.min(SWEEP_MS, caps.maxDurationMs),
    );
    timer.unref?.();
  }
  return guard;
}

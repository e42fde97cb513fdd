// The invariants of a soak run, checked against the service's own records (its list of every session it created,
// with when it was created and ended) and what the visitors were answered. Each gives ok, a one-line summary and
// the cases that broke it.
import type { FaultLog } from './faults';
import type { ChildStats } from './procs';
import type { RequestRecord } from './visitors';

/** A session as the service records it (`GET /__emulator/sessions`). */
export interface ServiceSession {
  seq: number;
  session_id: string;
  session_status: string;
  created_at: string;
  ended_at: string | null;
  end_reason: string | null;
  demeanour: { agentPrompt?: string };
}

export interface Invariant {
  name: string;
  ok: boolean;
  summary: string;
  cases: string[];
}

interface Input {
  profile: {
    limits: {
      clientMaxConcurrent: number;
      maxDurationMs: number;
      ownerMaxConcurrent: number;
      ownerCreatesPerWindow: number;
      ownerWindowMs: number;
      idleTimeoutS: number;
    };
  };
  requests: RequestRecord[];
  faults: FaultLog[];
  sessions: ServiceSession[];
  baseline: Record<string, ChildStats | null>;
  after: Record<string, ChildStats | null>;
  startedIso: string;
}

/**
 * How long past its maximum length a session may run: the proxy's sweep runs every 5 s; a deadline whose end
 * failed (the service or Redis down) comes back after a 30 s lease; the end call itself may take the upstream time
 * limit (4 s); and one instance's clock runs up to 3 s ahead or behind during the skew fault.
 */
export const GRACE_MS = 5_000 + 30_000 + 4_000 + 3_000;
/**
 * How long after a fault's repair its effects may last: the Redis client reconnects within 0.5 s and a store command
 * waits at most 2.5 s (the soak's `redisStore({timeoutMs})`); a request the service answered late may still time out (4 s); a visitor's next poll comes within
 * 5 s. 15 s covers them all with room.
 */
export const RECOVERY_MS = 15_000;
/**
 * One poll interval of a visitor (the SDK's longest, 5 s, with its ±20 % jitter): within it after Redis came back
 * empty, every browser has polled, and the proxy counts its session under its client again.
 */
export const POLL_WINDOW_MS = 6_000;
/** Heap growth allowed between the idle baseline and the idle state after the run (after a GC), bytes. */
export const HEAP_SLACK = 32 * 1024 * 1024;
/** Open handles allowed above the baseline after the run (keep-alive sockets to Redis and the service). */
export const HANDLE_SLACK = 6;

const ms = (iso: string) => Date.parse(iso);
/** The client address a visitor wrote into its session's prompt (`soak client=… visitor=…`); probes excluded. */
const clientOf = (s: ServiceSession) => /client=(\S+)/.exec(s.demeanour.agentPrompt ?? '')?.[1];
/** The visitor that created a session (its prompt's `visitor=…`). */
const visitorOf = (s: ServiceSession) => /visitor=(\d+)/.exec(s.demeanour.agentPrompt ?? '')?.[1];

/** The most sessions running at once among `intervals`, and when. */
function peak(intervals: [number, number][]): { max: number; at: number } {
  const edges: [number, number][] = [];
  for (const [a, b] of intervals) edges.push([a, 1], [b, -1]);
  // An end and a start at the same instant: the end first (the slot was free).
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let n = 0;
  let best = { max: 0, at: 0 };
  for (const [t, d] of edges) {
    n += d;
    if (n > best.max) best = { max: n, at: t };
  }
  return best;
}

export function checkInvariants(r: Input): Invariant[] {
  const L = r.profile.limits;
  const out: Invariant[] = [];
  const end = (s: ServiceSession) => (s.ended_at === null ? Infinity : ms(s.ended_at));
  const wipe = r.faults.find((f) => f.kind === 'redis-kill-wipe');
  const wipeAt = wipe ? ms(wipe.repairedIso) : Infinity;
  const rel = (t: number) => `+${((t - ms(r.startedIso)) / 1000).toFixed(1)}s`;

  // 1. Every session the service created was ended.
  const open = r.sessions.filter((s) => s.ended_at === null);
  out.push({
    name: 'every session created was ended',
    ok: open.length === 0,
    summary: `${r.sessions.length - open.length} of ${r.sessions.length} sessions ended at the service`,
    cases: open.slice(0, 20).map((s) => `${s.session_id} created ${rel(ms(s.created_at))} still ${s.session_status}`),
  });

  // 2. No session outlived its maximum length by more than the grace; after the store lost its data, a session
  // whose visitor had vanished is bounded by the service's idle timeout instead (the proxy no longer knows it).
  const bound = L.maxDurationMs + GRACE_MS;
  const long = r.sessions.filter((s) => s.ended_at !== null && end(s) - ms(s.created_at) > bound);
  const lost = long.filter((s) => ms(s.created_at) < wipeAt && end(s) > wipeAt - 10_000 && s.end_reason === 'idle_timeout');
  const over = long.filter((s) => !lost.includes(s));
  const worst = Math.max(0, ...r.sessions.filter((s) => s.ended_at !== null).map((s) => end(s) - ms(s.created_at) - L.maxDurationMs));
  out.push({
    name: `no session outlived its maximum length (${L.maxDurationMs / 1000} s) by more than ${GRACE_MS / 1000} s`,
    ok: over.length === 0,
    summary:
      `longest overrun ${(worst / 1000).toFixed(1)} s; ${over.length} over the bound` +
      (lost.length > 0 ? `; ${lost.length} created before the Redis wipe ended by the idle timeout (${L.idleTimeoutS} s) instead` : ''),
    cases: over
      .slice(0, 20)
      .map(
        (s) =>
          `${s.session_id} created ${rel(ms(s.created_at))} lived ${((end(s) - ms(s.created_at)) / 1000).toFixed(1)} s (${s.end_reason})`,
      ),
  });

  // 3. No client ran more sessions at once than its limit. After the Redis wipe the proxy counts a session under its
  // client again on its browser's next call with its handle (docs/proxy.md, "Each session counts under its client
  // again"); the residual it documents is exempt, and only it: (a) a session created before the wipe counts against
  // its client after the wipe only from its browser's first answered call after the repair (never, if none came);
  // (b) a create within one poll interval after the repair, from a client with a session created before the wipe
  // that had not been seen again by then, is left out.
  const HANDLE_ROUTES = new Set(['status', 'token', 'keep-alive', 'control', 'end', 'end-beacon']);
  const repairMs = wipe ? ms(wipe.repairedIso) : Infinity;
  const clockToIso = wipe ? ms(wipe.repairedIso) - wipe.repairedAt : 0;
  const seenAgain = new Map<string, number>();
  if (wipe)
    for (const q of r.requests) {
      if (!HANDLE_ROUTES.has(q.route) || q.status !== 200 || q.t < wipe.repairedAt) continue;
      const at = q.t + q.ms + clockToIso;
      const v = String(q.visitor);
      if (at < (seenAgain.get(v) ?? Infinity)) seenAgain.set(v, at);
    }
  const seenAt = (s: ServiceSession) => seenAgain.get(visitorOf(s) ?? '') ?? Infinity;
  const sessionsOf = new Map<string, ServiceSession[]>();
  for (const s of r.sessions) {
    const c = clientOf(s);
    if (c) sessionsOf.set(c, [...(sessionsOf.get(c) ?? []), s]);
  }
  let unseen = 0;
  let windowCreates = 0;
  const byClient = new Map<string, [number, number][]>();
  for (const [c, list] of sessionsOf) {
    const older = list.filter((s) => ms(s.created_at) < repairMs && end(s) > repairMs);
    const iv: [number, number][] = [];
    for (const s of list) {
      const [a, b] = [ms(s.created_at), end(s)];
      if (older.includes(s)) {
        // (a) Unknown to the proxy from the wipe until its browser's next answered call.
        iv.push([a, Math.min(b, wipeAt)]);
        const back = seenAt(s);
        if (back < b) iv.push([back, b]);
        else unseen += 1;
        continue;
      }
      // (b) A create in the window while an older session of its client had not been seen again.
      if (a >= repairMs && a <= repairMs + POLL_WINDOW_MS && older.some((o) => end(o) > a && seenAt(o) > a)) {
        windowCreates += 1;
        continue;
      }
      iv.push([a, b]);
    }
    byClient.set(c, iv);
  }
  const clientCases: string[] = [];
  let clientMax = 0;
  for (const [c, iv] of byClient) {
    const p = peak(iv);
    clientMax = Math.max(clientMax, p.max);
    if (p.max > L.clientMaxConcurrent) {
      // The client's sessions, for a look at what let the extra one in.
      const mine = sessionsOf
        .get(c)!
        .map(
          (s) =>
            `${s.session_id.slice(0, 8)} visitor ${visitorOf(s) ?? '?'} ${rel(ms(s.created_at))}–${s.ended_at === null ? 'open' : rel(end(s))} (${s.end_reason ?? s.session_status}${seenAt(s) < Infinity ? `, seen again ${rel(seenAt(s))}` : ''})`,
        );
      clientCases.push(`client ${c}: ${p.max} sessions running at ${rel(p.at)}; its sessions: ${mine.join(', ')}`);
    }
  }
  if (clientCases.length > 0)
    clientCases.unshift(`faults: ${r.faults.map((f) => `${f.kind} ${rel(ms(f.startedIso))}–${rel(ms(f.repairedIso))}`).join(', ')}`);
  out.push({
    name: `no client ran more than ${L.clientMaxConcurrent} sessions at once`,
    ok: clientCases.length === 0,
    summary:
      `${byClient.size} client addresses; most at once by one client: ${clientMax}` +
      (wipe
        ? `; after the Redis wipe (the documented residual) ${unseen} older sessions never seen again, ${windowCreates} creates within ${POLL_WINDOW_MS / 1000} s before their client's older sessions were seen again`
        : ''),
    cases: clientCases.slice(0, 20),
  });

  // 4. The owner's ceilings: sessions running at once, and sessions started per window (the windows aligned to the
  // epoch, as a fixed window counts them; a sliding window satisfies this too).
  const all = peak(r.sessions.map((s) => [ms(s.created_at), end(s)]));
  const perWindow = new Map<number, number>();
  for (const s of r.sessions) {
    const w = Math.floor(ms(s.created_at) / L.ownerWindowMs);
    perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
  }
  const busiest = Math.max(0, ...perWindow.values());
  const ownerCases = [
    ...(all.max > L.ownerMaxConcurrent ? [`${all.max} sessions running at once at ${rel(all.at)}`] : []),
    ...[...perWindow]
      .filter(([, n]) => n > L.ownerCreatesPerWindow)
      .map(([w, n]) => `${n} sessions started in the window from ${rel(w * L.ownerWindowMs)}`),
  ];
  out.push({
    name: `the owner's ceilings held (${L.ownerMaxConcurrent} at once, ${L.ownerCreatesPerWindow} per ${L.ownerWindowMs / 1000} s)`,
    ok: ownerCases.length === 0,
    summary: `most at once: ${all.max}; most started in one window: ${busiest}`,
    cases: ownerCases,
  });

  // 5. No 5xx but the documented ones, and failures only while a fault lasts. Always fine: 503 for the owner's
  // ceilings (a busy site). While a fault lasts and up to RECOVERY_MS after its repair: a broken connection (the
  // killed instance), 502 / 504 (the service failing, late or dropping connections), 503 "cannot reach its store"
  // (Redis down). Anything else (a 500, or one of those outside a fault) breaks it.
  const ownerCeiling = (q: RequestRecord) => q.status === 503 && /^This site /.test(q.detail ?? '');
  const inFault = (t: number) => r.faults.some((f) => t >= f.startedAt - 100 && t <= f.repairedAt + RECOVERY_MS);
  const fivexx = r.requests.filter((q) => q.status >= 500 || q.status === -1);
  // Store failures after a Redis restart are the next invariant's.
  const restarts = r.faults.filter((f) => f.kind === 'redis-kill-persist' || f.kind === 'redis-kill-wipe');
  const storeDown = (q: RequestRecord) => q.status === 503 && /store/.test(q.detail ?? '');
  // Past a restart's recovery time and not explained by a later fault (another Redis kill or pause, for one).
  const afterRestart = (q: RequestRecord) =>
    storeDown(q) && !(inFault(q.t) || inFault(q.t + q.ms)) && restarts.some((f) => q.t + q.ms > f.repairedAt + RECOVERY_MS);
  // A fault's failure may be sent during it (a cold restarted instance answers late) or answered during it (a request
  // sent just before a kill breaks with it).
  const bad = fivexx.filter((q) => !ownerCeiling(q) && !afterRestart(q) && (q.status === 500 || !(inFault(q.t) || inFault(q.t + q.ms))));
  const byStatus = new Map<string, number>();
  for (const q of fivexx) {
    const k = q.status === -1 ? 'network' : ownerCeiling(q) ? '503 owner ceiling' : String(q.status);
    byStatus.set(k, (byStatus.get(k) ?? 0) + 1);
  }
  out.push({
    name: `no 5xx but documented ones, and failures only during a fault (until ${RECOVERY_MS / 1000} s after its repair)`,
    ok: bad.length === 0,
    summary: `${fivexx.length} failed or 5xx of ${r.requests.length} requests (${[...byStatus].map(([s, n]) => `${s}: ${n}`).join(', ') || 'none'}); ${bad.length} outside a fault or undocumented`,
    cases: bad
      .slice(0, 20)
      .map(
        (q) =>
          `${q.status === -1 ? 'network' : q.status} ${q.route} at +${(q.t / 1000).toFixed(1)}s on instance ${q.instance + 1}: ${q.detail ?? ''}`,
      ),
  });

  // 6. After Redis restarts (with its data or without), the proxies serve again: Redis forgets its Lua scripts on a
  // restart, and a store that does not reload them answers 503 for good.
  const stuck = r.requests.filter(afterRestart);
  out.push({
    name: `the proxies serve again within ${RECOVERY_MS / 1000} s after Redis restarts`,
    ok: stuck.length === 0,
    summary:
      stuck.length === 0
        ? `${restarts.length} Redis restarts; no store failure ${RECOVERY_MS / 1000} s after one`
        : `${stuck.length} requests answered 503 "cannot reach its store" more than ${RECOVERY_MS / 1000} s after Redis was back, the last at +${(Math.max(...stuck.map((q) => q.t + q.ms)) / 1000).toFixed(1)}s`,
    cases: [...new Set(stuck.map((q) => `${q.route}: ${q.detail ?? ''}`))].slice(0, 5),
  });

  // 7. Memory and open handles back to their idle baseline after the run (after a GC). The service keeps every
  // finished session on purpose (the records above), so only its handles are checked.
  const memCases: string[] = [];
  const handleCount = (s: ChildStats | null) => Object.values(s?.handles ?? {}).reduce((a, b) => a + b, 0);
  for (const [name, b] of Object.entries(r.baseline)) {
    const a = r.after[name];
    if (!b || !a) {
      memCases.push(`${name}: no stats (${!b ? 'baseline' : 'after'})`);
      continue;
    }
    if (!name.startsWith('service') && a.mem.heapUsed > b.mem.heapUsed + HEAP_SLACK)
      memCases.push(`${name}: heap ${mb(b.mem.heapUsed)} → ${mb(a.mem.heapUsed)}`);
    if (handleCount(a) > handleCount(b) + HANDLE_SLACK)
      memCases.push(`${name}: handles ${JSON.stringify(b.handles)} → ${JSON.stringify(a.handles)}`);
  }
  out.push({
    name: 'memory and open handles back to the idle baseline after the run',
    ok: memCases.length === 0,
    summary: Object.entries(r.after)
      .map(
        ([n, a]) =>
          `${n}: heap ${mb(r.baseline[n]?.mem.heapUsed ?? 0)} → ${mb(a?.mem.heapUsed ?? 0)}, handles ${handleCount(r.baseline[n] ?? null)} → ${handleCount(a ?? null)}`,
      )
      .join('; '),
    cases: memCases,
  });
  return out;
}

const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;

// The figures of a soak run (docs/reliability.md). Rates and latencies are computed per 10 s window (CPU and
// service calls per 5 s sample) outside the faults, and reported as the median over those windows with its 90 %
// bootstrap interval; the faults get their own table. Figures are reported, never asserted.
import type { FaultLog } from './faults';
import type { ServiceSession } from './invariants';
import type { ChildStats } from './procs';
import { medianInterval, quantile } from './stats';
import type { RequestRecord, VisitorRecord } from './visitors';

/** The stats of every process at one moment of the run (run clock, ms). */
export interface Sample {
  t: number;
  stats: Record<string, ChildStats | null>;
}

interface Input {
  profile: { rampS: number; name: string };
  loadStart: number;
  loadEnd: number;
  visitors: VisitorRecord[];
  requests: RequestRecord[];
  faults: FaultLog[];
  sessions: ServiceSession[];
  samples: Sample[];
  baseline: Record<string, ChildStats | null>;
  after: Record<string, ChildStats | null>;
  probe: { n: number; ops: Record<string, { proxy: Record<string, number>; redis: Record<string, number> }> };
}

export type Interval = ReturnType<typeof medianInterval>;

/** A fault's effects are counted from its start until this long after its repair, ms. */
export const FAULT_TAIL_MS = 30_000;
/** A failed request: a broken connection or a 5xx, but not a 503 for the owner's ceilings (a busy site). */
const failed = (q: RequestRecord) => (q.status === -1 || q.status >= 500) && !(q.status === 503 && /^This site /.test(q.detail ?? ''));

export function computeFigures(r: Input) {
  const WINDOW_MS = r.profile.name === 'short' ? 5_000 : 10_000;
  const steadyFrom = r.loadStart + r.profile.rampS * 1000;
  // When the proxies did not recover from a Redis restart (the invariant says so), what follows it is no steady state.
  const restarts = r.faults.filter((f) => f.kind === 'redis-kill-persist' || f.kind === 'redis-kill-wipe');
  const stuckAfter = restarts.find((f) =>
    r.requests.some((q) => q.status === 503 && /store/.test(q.detail ?? '') && q.t + q.ms > f.repairedAt + 15_000),
  );
  const steadyTo = Math.min(r.loadEnd, stuckAfter ? stuckAfter.startedAt : Infinity);
  const quiet = (t: number) =>
    t >= steadyFrom && t <= steadyTo && !r.faults.some((f) => t >= f.startedAt - 1000 && t <= f.repairedAt + 20_000);
  const windows: [number, number][] = [];
  for (let a = steadyFrom; a + WINDOW_MS <= r.loadEnd; a += WINDOW_MS) windows.push([a, a + WINDOW_MS]);
  const quietWindows = windows.filter(([a, b]) => quiet(a) && quiet(b));
  const inWin = (q: { t: number }, [a, b]: [number, number]) => q.t >= a && q.t < b;

  // Admissions: creates answered 201 / 429 / 503 / other, per second, over every steady window (faults included:
  // what a busy site sees).
  const creates = r.requests.filter((q) => q.route === 'create');
  const perWindow = (pred: (q: RequestRecord) => boolean) =>
    windows.map((w) => creates.filter((q) => inWin(q, w) && pred(q)).length / (WINDOW_MS / 1000));
  const owner = (q: RequestRecord) => q.status === 503 && /^This site /.test(q.detail ?? '');
  const other = (q: RequestRecord) => q.status !== 201 && q.status !== 429 && !owner(q);
  const admissions = {
    admitted: medianInterval(perWindow((q) => q.status === 201)),
    refusedClient: medianInterval(perWindow((q) => q.status === 429)),
    refusedOwner: medianInterval(perWindow(owner)),
    failed: medianInterval(perWindow(other)),
    totals: {
      visitors: r.visitors.length,
      created: creates.filter((q) => q.status === 201).length,
      refusedClient: creates.filter((q) => q.status === 429).length,
      refusedOwner: creates.filter(owner).length,
      failed: creates.filter(other).length,
      requests: r.requests.length,
    },
  };

  // Sessions running at the service, and visitors present, at each sample.
  const serviceNow = (s: Sample) => s.stats.service?.now;
  const liveAt = (wall: number) =>
    r.sessions.filter((x) => Date.parse(x.created_at) <= wall && (x.ended_at === null || Date.parse(x.ended_at) > wall)).length;
  const steadySamples = r.samples.filter((s) => s.t >= steadyFrom && s.t <= r.loadEnd && serviceNow(s) !== undefined);
  const live = steadySamples.map((s) => liveAt(serviceNow(s)!));
  const present = steadySamples.map((s) => r.visitors.filter((v) => v.arrivedAt <= s.t && (v.leftAt ?? Infinity) > s.t).length);
  const held = {
    liveSessions: medianInterval(live),
    liveSessionsMax: Math.max(0, ...live),
    visitorsPerInstance: medianInterval(present.map((n) => n / 2)),
    visitorsPerInstanceMax: Math.max(0, ...present) / 2,
  };

  // Latency per route, p50 and p99 per quiet window.
  const routes = ['create', 'status', 'token', 'keep-alive', 'control', 'end', 'end-beacon'];
  const latency: Record<string, { p50: Interval; p99: Interval; count: number }> = {};
  for (const route of [...routes, 'all']) {
    const mine = r.requests.filter((q) => (route === 'all' || q.route === route) && q.status !== -1);
    const p50: number[] = [];
    const p99: number[] = [];
    for (const w of quietWindows) {
      const xs = mine.filter((q) => inWin(q, w)).map((q) => q.ms);
      if (xs.length < 5) continue;
      p50.push(quantile(xs, 0.5));
      p99.push(quantile(xs, 0.99));
    }
    latency[route] = { p50: medianInterval(p50), p99: medianInterval(p99), count: mine.filter((q) => quiet(q.t)).length };
  }
  const byInstance = [0, 1].map((i) => {
    const p50: number[] = [];
    const p99: number[] = [];
    for (const w of quietWindows) {
      const xs = r.requests.filter((q) => q.instance === i && q.route === 'status' && q.status !== -1 && inWin(q, w)).map((q) => q.ms);
      if (xs.length < 5) continue;
      p50.push(quantile(xs, 0.5));
      p99.push(quantile(xs, 0.99));
    }
    return { p50: medianInterval(p50), p99: medianInterval(p99) };
  });

  // CPU per request of each proxy, and of the service per service call, between consecutive quiet samples.
  const cpuUs = (s: ChildStats) => s.cpu.user + s.cpu.system;
  const pairs = r.samples
    .slice(1)
    .map((s, i) => [r.samples[i]!, s] as const)
    .filter(([a, b]) => quiet(a.t) && quiet(b.t));
  const proxyNames = Object.keys(r.baseline).filter((n) => n.startsWith('proxy'));
  const cpu: Record<string, { usPerRequest: Interval; requestsPerS: Interval }> = {};
  for (const name of proxyNames) {
    const per: number[] = [];
    const rps: number[] = [];
    for (const [a, b] of pairs) {
      const x = a.stats[name];
      const y = b.stats[name];
      if (!x || !y || y.served === undefined || x.served === undefined || y.served < x.served) continue;
      const n = y.served - x.served;
      rps.push(n / ((b.t - a.t) / 1000));
      if (n >= 20) per.push((cpuUs(y) - cpuUs(x)) / n);
    }
    cpu[name] = { usPerRequest: medianInterval(per), requestsPerS: medianInterval(rps) };
  }
  const serviceCpu: number[] = [];
  // Service calls per running session per minute, by route.
  const callRoutes = ['GET /liveai/sessions/:id', 'POST /liveai/sessions/:id/control', 'POST /liveai/sessions'];
  const perSessionMin: Record<string, number[]> = Object.fromEntries([...callRoutes, 'all'].map((k) => [k, []]));
  for (const [a, b] of pairs) {
    const x = a.stats.service;
    const y = b.stats.service;
    if (!x?.calls || !y?.calls) continue;
    // 'all': the service's own routes only (not the soak's chat deliveries to /__emulator).
    const calls = (s: ChildStats, k: string) =>
      k === 'all' ? Object.entries(s.calls!).reduce((p, [route, n]) => p + (route === 'other' ? 0 : n), 0) : (s.calls![k] ?? 0);
    const total = calls(y, 'all') - calls(x, 'all');
    if (total >= 20) serviceCpu.push((cpuUs(y) - cpuUs(x)) / total);
    const liveMinutes = ((liveAt(x.now) + liveAt(y.now)) / 2) * ((y.now - x.now) / 60_000);
    if (liveMinutes <= 0) continue;
    for (const k of [...callRoutes, 'all']) perSessionMin[k]!.push((calls(y, k) - calls(x, k)) / liveMinutes);
  }
  const serviceCalls = Object.fromEntries(Object.entries(perSessionMin).map(([k, xs]) => [k, medianInterval(xs)]));
  // Requests the visitors sent the proxies per running session per minute, by route, over the same samples.
  const proxyRoutes = ['status', 'token', 'keep-alive', 'control', 'create', 'end', 'end-beacon'];
  const proxyPer: Record<string, number[]> = Object.fromEntries([...proxyRoutes, 'all'].map((k) => [k, []]));
  for (const [a, b] of pairs) {
    const x = a.stats.service;
    const y = b.stats.service;
    if (!x || !y) continue;
    const liveMinutes = ((liveAt(x.now) + liveAt(y.now)) / 2) * ((b.t - a.t) / 60_000);
    if (liveMinutes <= 0) continue;
    const sent = r.requests.filter((q) => q.t >= a.t && q.t < b.t);
    for (const k of [...proxyRoutes, 'all']) proxyPer[k]!.push(sent.filter((q) => k === 'all' || q.route === k).length / liveMinutes);
  }
  const proxyRequests = Object.fromEntries(Object.entries(proxyPer).map(([k, xs]) => [k, medianInterval(xs)]));

  // Each fault's effect: requests that failed (network, 5xx) from its start to FAULT_TAIL_MS after its repair, the
  // visitors that saw one, creates refused with 503 meanwhile, and the time from the repair to the last failure.
  const faults = r.faults.map((f) => {
    // Requests answered (or broken) from the fault's start to FAULT_TAIL_MS after its repair.
    const inFault = r.requests.filter((q) => q.t + q.ms >= f.startedAt && q.t + q.ms <= f.repairedAt + FAULT_TAIL_MS);
    const bad = inFault.filter(failed);
    const byStatus: Record<string, number> = {};
    for (const q of bad)
      byStatus[q.status === -1 ? 'network' : String(q.status)] = (byStatus[q.status === -1 ? 'network' : String(q.status)] ?? 0) + 1;
    const afterRepair = bad.filter((q) => q.t + q.ms >= f.repairedAt);
    const lastBad = afterRepair.length > 0 ? Math.max(...afterRepair.map((q) => q.t + q.ms)) : f.repairedAt;
    const firstOk = r.requests.filter((q) => q.route === 'create' && q.status === 201 && q.t >= f.repairedAt).map((q) => q.t + q.ms);
    const createdDuring = r.sessions.filter((s) => {
      const t = Date.parse(s.created_at);
      return t >= Date.parse(f.startedIso) && t <= Date.parse(f.repairedIso);
    }).length;
    return {
      kind: f.kind,
      what: f.what,
      startedIso: f.startedIso,
      heldS: (f.repairedAt - f.startedAt) / 1000,
      requests: inFault.length,
      failed: bad.length,
      byStatus,
      visitorsAffected: new Set(bad.map((q) => q.visitor)).size,
      recoverS: (lastBad - f.repairedAt) / 1000,
      firstCreateAfterRepairS: firstOk.length > 0 ? (Math.min(...firstOk) - f.repairedAt) / 1000 : null,
      sessionsCreatedDuring: createdDuring,
    };
  });
  const quietFailures = r.requests.filter((q) => quiet(q.t) && failed(q)).length;

  // Memory: idle baseline, peak RSS over the run, idle after the run.
  const memory = Object.fromEntries(
    Object.keys(r.baseline).map((name) => {
      const rss = r.samples.map((s) => s.stats[name]?.mem.rss ?? 0);
      return [
        name,
        {
          baselineHeap: r.baseline[name]?.mem.heapUsed ?? NaN,
          afterHeap: r.after[name]?.mem.heapUsed ?? NaN,
          baselineRss: r.baseline[name]?.mem.rss ?? NaN,
          peakRss: Math.max(0, ...rss),
          afterRss: r.after[name]?.mem.rss ?? NaN,
          baselineHandles: r.baseline[name]?.handles ?? {},
          afterHandles: r.after[name]?.handles ?? {},
        },
      ];
    }),
  );
  const serviceHeapPerSession =
    r.sessions.length > 0 ? ((r.after.service?.mem.heapUsed ?? 0) - (r.baseline.service?.mem.heapUsed ?? 0)) / r.sessions.length : NaN;

  // Overrun past the maximum length, for the sessions the proxy ended at it.
  const headline = {
    admittedPerS: admissions.admitted.median,
    refusedPerS: admissions.refusedClient.median + admissions.refusedOwner.median,
    liveSessionsMax: held.liveSessionsMax,
    statusP50Ms: latency.status?.p50.median,
    statusP99Ms: latency.status?.p99.median,
    cpuUsPerRequest: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v.usPerRequest.median)])),
    serviceCallsPerSessionMin: serviceCalls.all?.median,
    redisRoundTripsPerCreate: Object.values(r.probe.ops.create?.proxy ?? {}).reduce((a, b) => a + b, 0),
  };
  return {
    headline,
    windows: { steady: windows.length, quiet: quietWindows.length, cutAtRedisRestart: stuckAfter !== undefined },
    admissions,
    held,
    latency,
    byInstance,
    cpu,
    serviceCpuUsPerCall: medianInterval(serviceCpu),
    serviceCalls,
    proxyRequests,
    redis: r.probe,
    faults,
    quietFailures,
    memory,
    serviceHeapPerSession,
  };
}

#!/usr/bin/env node
// The soak: simulated visitors against two proxy instances (Express `createAvatarProxy` and Fetch
// `createAvatarHandler`) sharing one real redis-server, in front of the local service with media off, while scripted
// faults hit every part; then the invariants, checked against the service's own records and the proxies', and the
// figures of docs/reliability.md.
//   npx tsx scripts/soak/run.ts [--profile full|short] [--write-doc] [--json FILE]
// `npm run soak` is the full profile (about 15 minutes) and rewrites docs/reliability.md; the short profile (about
// 2.5 minutes) is what test/soak/soak.test.ts runs in `npm test`.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { runFault, type FaultLog, type FaultStep } from './faults';
import { checkInvariants, type ServiceSession } from './invariants';
import { computeFigures, type Sample } from './figures';
import { serviceCapacity, type ServiceCapacity } from './service-capacity';
import { freePort, proxyChild, RedisProc, serviceChild, type ChildStats, type NodeChild } from './procs';
import { clock, runVisitor, Traffic, type VisitorRecord, type VisitorSettings } from './visitors';

const API_KEY = 'dev-key-soak';
const AGENT = 'agent-soak';

/** One soak profile: the load, the limits the proxies enforce, and the fault schedule. Times in s unless named. */
export interface SoakProfile {
  name: 'short' | 'full';
  /** Arrivals run this long; the drain follows. */
  loadS: number;
  /** Arrivals ramp up linearly over this long, then hold. */
  rampS: number;
  /** New visitors per second once ramped up (Poisson). */
  arrivalsPerS: number;
  visitors: VisitorSettings;
  /** Share of visitors that come from one of a few busy addresses (several tabs, an office behind one NAT). */
  busyShare: number;
  busyClients: number;
  limits: {
    clientMaxConcurrent: number;
    clientCreatesPerWindow: number;
    maxDurationMs: number;
    ownerMaxConcurrent: number;
    ownerCreatesPerWindow: number;
    ownerWindowMs: number;
    /** The proxy's `idleTimeoutSeconds`: sent as `idle_timeout` on every create. */
    idleTimeoutS: number;
    tokenTtlSeconds: number;
  };
  faults: FaultStep[];
  /** Sessions the Redis probe creates (and polls, renews, ends) one at a time before the load. */
  probeSessions: number;
}

const sdkVisitors = (o: Partial<VisitorSettings>): VisitorSettings => ({
  pollIntervalMs: 1000,
  maxPollIntervalMs: 5000,
  keepAliveMs: 30_000,
  keepAliveShare: 0.5,
  meanStayMs: 60_000,
  maxStayMs: 240_000,
  endShare: 0.7,
  beaconShare: 0.15,
  endTimeoutMs: 15_000,
  ...o,
});

export const PROFILES: Record<SoakProfile['name'], SoakProfile> = {
  full: {
    name: 'full',
    loadS: 600,
    rampS: 40,
    arrivalsPerS: 10,
    visitors: sdkVisitors({ meanStayMs: 75_000, maxStayMs: 240_000 }),
    busyShare: 0.08,
    busyClients: 12,
    limits: {
      clientMaxConcurrent: 3,
      clientCreatesPerWindow: 30,
      maxDurationMs: 180_000,
      ownerMaxConcurrent: 400,
      ownerCreatesPerWindow: 900,
      ownerWindowMs: 60_000,
      idleTimeoutS: 120,
      tokenTtlSeconds: 120,
    },
    faults: [
      { kind: 'proxy-kill', at: 100, for: 5 },
      { kind: 'redis-pause', at: 150, for: 5 },
      { kind: 'service-5xx', at: 200, for: 10 },
      { kind: 'service-slow', at: 250, for: 15 },
      { kind: 'service-timeout', at: 305, for: 8 },
      { kind: 'service-drop', at: 355, for: 8 },
      { kind: 'clock-skew', at: 400, for: 40 },
      { kind: 'redis-kill-persist', at: 480, for: 3 },
      { kind: 'redis-kill-wipe', at: 530, for: 3 },
    ],
    probeSessions: 50,
  },
  short: {
    name: 'short',
    loadS: 100,
    rampS: 8,
    arrivalsPerS: 8,
    visitors: sdkVisitors({ meanStayMs: 20_000, maxStayMs: 60_000 }),
    busyShare: 0.1,
    busyClients: 6,
    limits: {
      clientMaxConcurrent: 3,
      clientCreatesPerWindow: 30,
      maxDurationMs: 40_000,
      ownerMaxConcurrent: 150,
      ownerCreatesPerWindow: 400,
      ownerWindowMs: 60_000,
      idleTimeoutS: 45,
      tokenTtlSeconds: 60,
    },
    faults: [
      { kind: 'proxy-kill', at: 40, for: 3 },
      { kind: 'redis-pause', at: 46, for: 3 },
      { kind: 'service-5xx', at: 52, for: 4 },
      { kind: 'service-slow', at: 58, for: 4 },
      { kind: 'service-timeout', at: 64, for: 5 },
      { kind: 'service-drop', at: 72, for: 4 },
      { kind: 'clock-skew', at: 78, for: 6 },
      { kind: 'redis-kill-persist', at: 86, for: 2 },
      { kind: 'redis-kill-wipe', at: 92, for: 2 },
    ],
    probeSessions: 20,
  },
};

/** Everything a run measured: the raw material of the invariants and the figures. */
export interface SoakResult {
  profile: SoakProfile;
  startedIso: string;
  durationS: number;
  loadAvg: { before: number[]; after: number[] };
  loadStart: number;
  loadEnd: number;
  visitors: VisitorRecord[];
  requests: Traffic['records'];
  faults: FaultLog[];
  sessions: ServiceSession[];
  samples: Sample[];
  baseline: Record<string, ChildStats | null>;
  after: Record<string, ChildStats | null>;
  probe: Probe;
  log: string[];
  stderr: Record<string, string>;
  invariants: ReturnType<typeof checkInvariants>;
  figures: ReturnType<typeof computeFigures>;
  /** The service alone holding many sessions at once (`--capacity N`; scripts/soak/service-capacity.ts). */
  capacity?: ServiceCapacity;
}

/** Redis round trips per proxy operation, from the proxies' own count and from Redis's `INFO commandstats`. */
export interface Probe {
  n: number;
  /** Per operation: round trips the proxies sent (by command) and what Redis counted (commandstats deltas). */
  ops: Record<string, { proxy: Record<string, number>; redis: Record<string, number> }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const poisson = (rate: number) => -Math.log(1 - Math.random()) / rate;

/** Runs one soak. `say` gets a timestamped line per step. */
export async function runSoak(profile: SoakProfile, say: (line: string) => void = console.log): Promise<SoakResult> {
  const log: string[] = [];
  const t0 = Date.now();
  const note = (line: string) => {
    const l = `${new Date().toISOString()} +${(clock() / 1000).toFixed(1)}s ${line}`;
    log.push(l);
    say(l);
  };
  const loadBefore = loadavg();
  const L = profile.limits;
  const seed = { accounts: [{ api_key: API_KEY, credits: 1e9, agents: [{ agent_id: AGENT, image_url: `/liveai/assets/${AGENT}.png` }] }] };
  const redis = new RedisProc(await freePort());
  await redis.start({ persist: true });
  const service = serviceChild({ port: await freePort(), queueMs: 300, idleTimeoutS: 600, seed });
  await service.start();
  const sessionSecret = randomBytes(32).toString('hex');
  const proxyOptions = {
    sessionLimits: {
      maxConcurrent: L.clientMaxConcurrent,
      maxDurationMs: L.maxDurationMs,
      createsPerWindow: L.clientCreatesPerWindow,
      createWindowMs: 3600_000,
    },
    ownerLimits: { maxConcurrent: L.ownerMaxConcurrent, createsPerWindow: L.ownerCreatesPerWindow, createWindowMs: L.ownerWindowMs },
    idleTimeoutSeconds: L.idleTimeoutS,
    tokenTtlSeconds: L.tokenTtlSeconds,
    upstream: { timeoutMs: 4000 },
  };
  const proxies: NodeChild[] = await Promise.all(
    (['express', 'fetch'] as const).map(async (kind, i) => {
      const child = proxyChild(`proxy-${i + 1}-${kind}`, {
        kind,
        port: await freePort(),
        redisUrl: redis.url,
        serviceUrl: service.url,
        apiKey: API_KEY,
        sessionSecret,
        options: proxyOptions,
      });
      await child.start();
      return child;
    }),
  );
  const children: NodeChild[] = [service, ...proxies];
  // Interrupted (Ctrl-C, a CI time-out): take the processes down with the run, not leave them running.
  const killAll = () => {
    for (const c of children) c.proc?.kill('SIGKILL');
    redis.proc?.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const onSignal = () => process.exit(130);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const statsOf = async (gc = false) =>
    Object.fromEntries(await Promise.all(children.map(async (c) => [c.name, await c.stats(gc)] as const)));
  const rc = createClient({ url: redis.url, socket: { reconnectStrategy: (n: number) => Math.min(50 * (n + 1), 500) } });
  rc.on('error', () => {});
  await rc.connect();
  const traffic = new Traffic(proxies.map((p) => p.url));
  note(`started: redis ${redis.url}, service ${service.url}, proxies ${proxies.map((p) => p.url).join(' ')}`);

  // Warm-up, then the idle baseline of memory and handles.
  await probeOps(traffic, proxies, redis, rc, 5, 'warm');
  await sleep(1000);
  const baseline = await statsOf(true);
  const probe = await probeOps(traffic, proxies, redis, rc, profile.probeSessions, 'probe');
  note(`redis probe: ${JSON.stringify(Object.fromEntries(Object.entries(probe.ops).map(([k, v]) => [k, v.proxy])))}`);

  // Samples of every process every 5 s.
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const t = clock();
      samples.push({ t, stats: await statsOf() });
      await sleep(5000);
    }
  })();

  // The load: Poisson arrivals, ramped, while the faults run on their schedule.
  const loadStart = clock();
  note(`load: ${profile.arrivalsPerS} visitors/s after a ${profile.rampS} s ramp, for ${profile.loadS} s`);
  const stop = new AbortController();
  const running = new Set<Promise<VisitorRecord>>();
  const visitors: VisitorRecord[] = [];
  let nextId = 0;
  const busy = Array.from({ length: profile.busyClients }, (_, i) => `10.200.0.${i + 1}`);
  const faults: FaultLog[] = [];
  const faultRun = (async () => {
    for (const step of profile.faults) {
      const wait = loadStart + step.at * 1000 - clock();
      if (wait > 0) await sleep(wait);
      faults.push(await runFault(step, { proxies, redis, serviceUrl: service.url }, note));
    }
  })();
  const chat = chatPump(service.url, () => clock() < loadStart + profile.loadS * 1000);
  while (clock() < loadStart + profile.loadS * 1000) {
    const elapsedS = (clock() - loadStart) / 1000;
    const rate = Math.max(0.2, profile.arrivalsPerS * Math.min(1, elapsedS / profile.rampS));
    await sleep(poisson(rate) * 1000);
    const id = ++nextId;
    const client = Math.random() < profile.busyShare ? busy[id % busy.length]! : `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`;
    const p = runVisitor(traffic, profile.visitors, { id, client, agentId: AGENT }, stop.signal);
    running.add(p);
    void p.then((r) => {
      visitors.push(r);
      running.delete(p);
    });
  }
  const loadEnd = clock();
  note(`load over: ${nextId} visitors arrived, ${running.size} still here`);
  await faultRun;
  await chat;
  // The drain: visitors finish their stays (at most the longest stay plus the end's wait), then every session at the
  // service must end: by its visitor, by the proxy at its maximum length, or by the service's idle timeout.
  const visitorsDone = Promise.all([...running]);
  await Promise.race([visitorsDone, sleep(profile.visitors.maxStayMs + profile.visitors.endTimeoutMs + 10_000)]);
  stop.abort();
  await Promise.race([visitorsDone, sleep(20_000)]);
  note(`visitors gone (${running.size} left)`);
  const drainLimit = clock() + L.maxDurationMs + L.idleTimeoutS * 1000 + 60_000;
  let sessions = await serviceSessions(service.url);
  while (sessions.some((s) => s.ended_at === null) && clock() < drainLimit) {
    await sleep(2000);
    sessions = await serviceSessions(service.url);
  }
  note(`drain over: ${sessions.filter((s) => s.ended_at === null).length} sessions still running at the service`);
  sampling = false;
  await sampler;
  // Memory and handles once the run is over: idle, after a GC, as at the baseline. Idle means past the proxies'
  // keep-alive to the service (10 s): the sweep's last ends (sessions it ends at their maximum length during the
  // drain) leave sockets that close then by design, not leaks.
  await sleep(11_000);
  const after = await statsOf(true);
  const loadAfter = loadavg();
  const stderr = Object.fromEntries(children.map((c) => [c.name, c.stderr()]));
  await rc.quit().catch(() => {});
  traffic.agent.destroy().catch(() => {});
  await Promise.all(children.map((c) => c.kill('SIGTERM')));
  await redis.kill();
  redis.cleanup();
  process.off('exit', killAll);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);

  const base: Omit<SoakResult, 'invariants' | 'figures'> = {
    profile,
    startedIso: new Date(t0).toISOString(),
    durationS: (Date.now() - t0) / 1000,
    loadAvg: { before: loadBefore, after: loadAfter },
    loadStart,
    loadEnd,
    visitors,
    requests: traffic.records,
    faults,
    sessions,
    samples,
    baseline,
    after,
    probe,
    log,
    stderr,
  };
  return recompute(base);
}

/** The invariants and figures of a run's raw result. */
export function recompute(base: Omit<SoakResult, 'invariants' | 'figures'>): SoakResult {
  return { ...base, invariants: checkInvariants(base), figures: computeFigures(base) };
}

/** Every session the service holds, from its own records (`GET /__emulator/sessions`). */
async function serviceSessions(url: string): Promise<ServiceSession[]> {
  const res = await fetch(`${url}/__emulator/sessions`);
  if (!res.ok) throw new Error(`the service's session list answered ${res.status}`);
  return ((await res.json()) as { sessions: ServiceSession[] }).sessions;
}

/**
 * Chat: in a room, a visitor's chat goes to the avatar over the media transport, not through the proxy; with media
 * off the soak delivers it to the service as the room would (`/__emulator/sessions/{id}/app-message`), two a second
 * to recently created sessions, so the service carries that activity too.
 */
async function chatPump(url: string, on: () => boolean): Promise<void> {
  let after = 0;
  let recent: string[] = [];
  let refreshed = 0;
  while (on()) {
    if (clock() - refreshed > 5000) {
      refreshed = clock();
      const res = await fetch(`${url}/__emulator/sessions?after=${after}`).catch(() => null);
      if (res?.ok) {
        const fresh = ((await res.json()) as { sessions: ServiceSession[] }).sessions;
        after = fresh.at(-1)?.seq ?? after;
        recent = [...recent, ...fresh.map((s) => s.session_id)].slice(-200);
      }
    }
    for (let i = 0; i < 2 && recent.length > 0; i += 1) {
      const id = recent[Math.floor(Math.random() * recent.length)]!;
      await fetch(`${url}/__emulator/sessions/${id}/app-message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'chat-msg', message: 'hello there', name: 'visitor' }),
      })
        .then((r) => r.body?.cancel())
        .catch(() => {});
    }
    await sleep(1000);
  }
}

/**
 * Redis round trips per proxy operation: `n` sessions created one at a time through instance 1 (each from its own
 * address), then each polled once, its token renewed, and ended; the proxies' count of commands sent and Redis's
 * `INFO commandstats` before and after each step.
 */
async function probeOps(
  traffic: Traffic,
  proxies: NodeChild[],
  redis: RedisProc,
  rc: { sendCommand: (args: string[]) => Promise<unknown> },
  n: number,
  tag: string,
): Promise<Probe> {
  const one = new Traffic([traffic.instances[0]!]);
  const sent = async () => {
    const out: Record<string, number> = {};
    for (const p of proxies) for (const [k, v] of Object.entries((await p.stats())?.redisCalls ?? {})) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const counted = () => redis.commandStats((args) => rc.sendCommand(args));
  const diff = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = (b[k] ?? 0) - (a[k] ?? 0);
      if (d > 0) out[k] = d / n;
    }
    return out;
  };
  const ops: Probe['ops'] = {};
  const sessions: { handle: string; token: string; ip: string }[] = [];
  const step = async (name: string, each: (i: number) => Promise<void>) => {
    const [s0, r0] = [await sent(), await counted()];
    for (let i = 0; i < n; i += 1) await each(i);
    const [s1, r1] = [await sent(), await counted()];
    // INFO itself is counted by Redis once per read.
    const redisDiff = diff(r0, r1);
    delete redisDiff.info;
    ops[name] = { proxy: diff(s0, s1), redis: redisDiff };
  };
  await step('create', async (i) => {
    const ipFull = `10.250.${tag === 'warm' ? 1 : 0}.${i}`;
    const res = await one.call(
      0,
      'probe-create',
      'POST',
      '/sessions',
      { 'content-type': 'application/json', 'x-forwarded-for': ipFull },
      JSON.stringify({ transport_type: 'rtc-a', agent_id: AGENT, agent_prompt: `soak probe ${tag} ${i}` }),
    );
    if (res.status !== 201) throw new Error(`probe create answered ${res.status}: ${JSON.stringify(res.json)}`);
    sessions.push({ handle: encodeURIComponent(String(res.json.session_id)), token: String(res.json.client_token), ip: ipFull });
  });
  await step('status', async (i) => {
    const s = sessions[i]!;
    await one.call(0, 'probe-status', 'GET', `/sessions/${s.handle}`, { authorization: `Bearer ${s.token}`, 'x-forwarded-for': s.ip });
  });
  await step('control', async (i) => {
    const s = sessions[i]!;
    await one.call(
      0,
      'probe-control',
      'POST',
      `/sessions/${s.handle}/control`,
      { 'content-type': 'application/json', authorization: `Bearer ${s.token}`, 'x-forwarded-for': s.ip },
      JSON.stringify({ event: 'reset-idle-timeout' }),
    );
  });
  await step('renew', async (i) => {
    const s = sessions[i]!;
    await one.call(0, 'probe-renew', 'POST', `/sessions/${s.handle}/token`, {
      authorization: `Bearer ${s.token}`,
      'x-forwarded-for': s.ip,
    });
  });
  await step('end', async (i) => {
    const s = sessions[i]!;
    const res = await one.call(
      0,
      'probe-end',
      'POST',
      `/sessions/${s.handle}/end`,
      { 'content-type': 'application/json', authorization: `Bearer ${s.token}`, 'x-forwarded-for': s.ip },
      '{}',
    );
    if (res.status !== 200) throw new Error(`probe end answered ${res.status}`);
  });
  await one.agent.destroy();
  return { n, ops };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const profile = PROFILES[(opt('profile') ?? 'full') as SoakProfile['name']];
  if (!profile) throw new Error('--profile is full or short');
  const from = opt('from');
  // `--from FILE`: the invariants, figures and report again from the raw result of an earlier `--json FILE`.
  const result: SoakResult = from ? recompute(JSON.parse(readFileSync(from, 'utf8')) as SoakResult) : await runSoak(profile);
  const capacity = opt('capacity');
  if (capacity) result.capacity = await serviceCapacity(Number(capacity));
  const json = opt('json');
  if (json) writeFileSync(json, JSON.stringify(result));
  const { renderReport } = await import('./report');
  if (args.includes('--write-doc')) {
    writeFileSync(fileURLToPath(new URL('../../docs/reliability.md', import.meta.url)), renderReport(result));
    console.log('soak: wrote docs/reliability.md');
  }
  const broken = result.invariants.filter((i) => !i.ok);
  for (const i of result.invariants) console.log(`${i.ok ? 'ok  ' : 'FAIL'} ${i.name}: ${i.summary}`);
  console.log(JSON.stringify(result.figures.headline, null, 2));
  process.exitCode = broken.length > 0 ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}

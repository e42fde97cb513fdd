// docs/reliability.md from a soak result: the setup, the invariants, the figures (medians with 90 % intervals), each
// fault's effect, and the scale estimate for 10 000 concurrent sessions derived from the measured figures.
import { cpus } from 'node:os';
import { FAULT_TAIL_MS, type Interval } from './figures';
import { GRACE_MS, RECOVERY_MS } from './invariants';
import type { SoakResult } from './run';

const f = (x: number | undefined, digits = 0) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits));
const iv = (i: Interval | undefined, digits = 0, unit = '') =>
  !i || i.n === 0 ? '—' : `${f(i.median, digits)}${unit} (${f(i.lo, digits)}–${f(i.hi, digits)}, n = ${i.n})`;
/** The local service's CPU per `GET` status read on a quieter machine, µs (docs/proxy.md, "Overhead": 180–190 µs). */
const SERVICE_US_QUIET = 185;
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
const cmds = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(', ') || '—';

export function renderReport(r: SoakResult): string {
  const P = r.profile;
  const L = P.limits;
  const F = r.figures;
  const V = P.visitors;
  const proxyNames = Object.keys(F.cpu);
  const cpuMedian = proxyNames.map((n) => F.cpu[n]!.usPerRequest.median).filter(Number.isFinite);
  const cpuUs = cpuMedian.length > 0 ? Math.max(...cpuMedian) : NaN;
  const probe = r.probe.ops;
  const rt = (op: string) => sum(probe[op]?.proxy ?? {});

  // Scale on paper, from the measured figures. Requests per running session per minute at the proxy, by kind.
  const perSessionMin = (route: string) => F.proxyRequests[route]?.median ?? NaN;
  const proxyPerMin = perSessionMin('all');
  const serviceMeasured = F.serviceCalls.all?.median ?? NaN;
  const N = 10_000;
  const proxyRps = (N * proxyPerMin) / 60;
  const serviceRps = (N * serviceMeasured) / 60;
  const redisPerReq =
    (perSessionMin('status') * rt('status') +
      perSessionMin('keep-alive') * rt('control') +
      perSessionMin('control') * rt('control') +
      perSessionMin('token') * rt('renew') +
      perSessionMin('create') * rt('create') +
      (perSessionMin('end') + perSessionMin('end-beacon')) * rt('end')) /
    Math.max(
      1e-9,
      ['status', 'keep-alive', 'control', 'token', 'create', 'end', 'end-beacon'].reduce((a, k) => a + perSessionMin(k), 0),
    );
  const redisOps = proxyRps * redisPerReq;
  const cores = (proxyRps * cpuUs) / 1e6;
  // CPU time per request grows with the machine's load (other jobs share the cores and caches); the service's own
  // CPU per call in the same run, against its 185 µs in docs/benchmarks.md ("Overhead", a quieter machine), says by
  // how much, and the proxy's figure divided by that factor is the estimate for a machine of its own.
  const inflation = F.serviceCpuUsPerCall.median / SERVICE_US_QUIET;
  const cpuQuiet = cpuUs / Math.max(1, inflation);
  const coresQuiet = (proxyRps * cpuQuiet) / 1e6;
  const instances = (c: number) => Math.max(2, Math.ceil(c / 0.6) + 1);
  const bound = 60_000 / (0.8 * V.maxPollIntervalMs) + 60_000 / V.keepAliveMs;

  const inv = r.invariants
    .map(
      (i) =>
        `| ${i.name} | ${i.ok ? '✅ held' : '❌ broken'} | ${i.summary}${i.cases.length > 0 ? `<br>${i.cases.slice(0, 5).join('<br>')}` : ''} |`,
    )
    .join('\n');
  const lat = Object.entries(F.latency)
    .filter(([, v]) => v.count > 0)
    .map(([k, v]) => `| ${k} | ${iv(v.p50, 1, ' ms')} | ${iv(v.p99, 1, ' ms')} | ${v.count} |`)
    .join('\n');
  const faults = F.faults
    .map(
      (x) =>
        `| ${x.what} | ${x.startedIso.slice(11, 19)} | ${f(x.heldS, 1)} s | ${x.failed} of ${x.requests} (${cmds(x.byStatus)}) | ${x.visitorsAffected} | ${f(x.recoverS, 1)} s | ${x.firstCreateAfterRepairS === null ? 'none' : `${f(x.firstCreateAfterRepairS, 1)} s`} | ${x.sessionsCreatedDuring} |`,
    )
    .join('\n');
  const mem = Object.entries(F.memory)
    .map(
      ([k, m]) =>
        `| ${k} | ${mb(m.baselineHeap)} → ${mb(m.afterHeap)} | ${mb(m.baselineRss)} / ${mb(m.peakRss)} / ${mb(m.afterRss)} | ${sum(m.baselineHandles)} → ${sum(m.afterHandles)} |`,
    )
    .join('\n');
  const redisRows = ['create', 'status', 'control', 'renew', 'end']
    .map((op) => `| ${op} | ${f(rt(op), 2)} (${cmds(probe[op]?.proxy ?? {})}) | ${cmds(probe[op]?.redis ?? {})} |`)
    .join('\n');
  const calls = Object.entries(F.serviceCalls)
    .map(([k, v]) => `| ${k === 'all' ? 'all service calls' : `\`${k}\``} | ${iv(v, 2)} |`)
    .join('\n');

  return `# Reliability under load and faults

Produced by \`npm run soak\` (profile \`${P.name}\`) on ${r.startedIso.slice(0, 10)} (${r.startedIso}), in ${f(r.durationS)} s, on a
**shared, loaded** ${cpus().length}-core machine: load average ${r.loadAvg.before.map((x) => x.toFixed(1)).join(' / ')} (1 / 5 / 15 min)
before the run and ${r.loadAvg.after.map((x) => x.toFixed(1)).join(' / ')} after it, from other jobs; Node ${process.version}. Absolute
throughput and latency are therefore low and noisy; CPU time per request moves far less with other load. Figures are
medians over ${P.name === 'short' ? 5 : 10}-second windows (CPU and service calls: over 5-second samples) outside the
faults (from 1 s before a fault to 20 s after its repair), each with its 90 % bootstrap interval (windows resampled
with replacement, 2000 draws) and the number of windows it rests on, as [benchmarks.md](benchmarks.md) reports its
rounds. They are reported, never asserted; the invariants are asserted.${
    F.windows.cutAtRedisRestart
      ? ' In this run the proxies did not serve again after Redis restarted (see the invariants), so the steady-state figures stop at the first Redis restart.'
      : ''
  }

## What runs

- **Two proxy instances**, each its own Node process on loopback: \`createAvatarProxy\` mounted on Express, and
  \`createAvatarHandler\` served by \`node:http\`. Both use one real \`redis-server\` through
  \`redisStore({sendCommand, timeoutMs: 2500})\` and node-redis (2.5 s rather than the default 1 s: on this loaded machine an
  event loop can stall for a second, and that would be the machine's failure, not Redis's), the same \`sessionSecret\`, \`trustProxy: ['loopback']\`, and these
  limits: ${L.clientMaxConcurrent} sessions at once and ${L.clientCreatesPerWindow} per hour per client address,
  sessions end after ${L.maxDurationMs / 1000} s (\`sessionLimits.maxDurationMs\`), the owner's ceilings
  ${L.ownerMaxConcurrent} at once and ${L.ownerCreatesPerWindow} per ${L.ownerWindowMs / 1000} s,
  \`idleTimeoutSeconds: ${L.idleTimeoutS}\`, client tokens of ${L.tokenTtlSeconds} s (so renewals happen within the
  run), \`upstream.timeoutMs: 4000\`, the default request rate limits (20 creates per address per minute, 120 requests
  per session per minute).
- **The local service** (the emulator, media off, \`queueMs\` 300), in its own process, keeping every finished
  session: the invariants are checked against its records (\`GET /__emulator/sessions\`). A thin front counts the
  service calls by route.
- **Visitors** (scripts/soak/visitors.ts): Node, no browser; each does what liveai-kit's session engine does over
  HTTP: \`POST /sessions\` (rtc-a, the proxy mints the LiveKit tokens), the first status poll after the room join
  (200–700 ms; no WebRTC here), status polls from ${V.pollIntervalMs} ms growing ×1.5 while the status is unchanged up to
  ${V.maxPollIntervalMs} ms with ±20 % jitter, token renewal past half its lifetime, \`reset-idle-timeout\` every
  ${V.keepAliveMs / 1000} s for the ${f(V.keepAliveShare * 100)} % whose user is active, another control event for
  30 %, a stay of ${V.meanStayMs / 1000} s on average (exponential, at most ${V.maxStayMs / 1000} s), then
  ${f(V.endShare * 100)} % \`session.end()\` (\`/end\`, then polling to the final status for up to
  ${V.endTimeoutMs / 1000} s), ${f(V.beaconShare * 100)} % the page-unload beacon (\`text/plain\`), and the rest
  vanish without a word. ${f(P.busyShare * 100)} % of visitors share ${P.busyClients} busy addresses (tabs, an office
  behind one NAT); the others each have their own. Chat goes over the media transport in a real room, so the soak
  delivers it to the service as the room would (two messages a second). Arrivals are Poisson, ramped over
  ${P.rampS} s to ${P.arrivalsPerS} per second, for ${P.loadS} s.
- **A load balancer model** in front of the instances: each request to a random instance that is up; a refused
  connection marks that instance down for 2 s and the request goes to the other one (it was never sent), as nginx's
  passive health checks do; a connection broken mid-request fails the request. autocannon is not used here: a visitor
  carries state from answer to answer (its token, its back-off, its end), which a fixed request mix cannot;
  scripts/bench-proxy.mjs keeps measuring the proxy's saturation throughput with autocannon.
- **Faults**, scripted (scripts/soak/faults.ts) and logged with their times: below.

## Invariants

| invariant | result | detail |
|---|---|---|
${inv}

The grace past the maximum length is ${GRACE_MS / 1000} s: the proxy's sweep runs every 5 s, a deadline whose end
failed comes back after a 30 s lease, the end call may take the 4 s upstream time limit, and the skewed instance's
clock is 3 s off. After Redis lost its data (restarted without persistence), the proxy no longer knows the sessions
started before: a session whose visitor had vanished is then ended by the service's idle timeout
(\`idleTimeoutSeconds\`) instead, which is why the proxy should always set it; those are counted apart. A fault's
effects may last ${RECOVERY_MS / 1000} s after its repair (the Redis client reconnects within 0.5 s, a store command
waits at most 2.5 s, a late service answer may still time out after 4 s, a visitor's next poll comes within 5 s).

## Figures

| measure | median (90 % interval, windows) |
|---|---|
| sessions admitted per second | ${iv(F.admissions.admitted, 2)} |
| creates refused per second, client limits (429) | ${iv(F.admissions.refusedClient, 2)} |
| creates refused per second, owner's ceilings (503) | ${iv(F.admissions.refusedOwner, 2)} |
| creates failed per second (faults: network, 502, 504, store 503) | ${iv(F.admissions.failed, 2)} |
| sessions running at the service | ${iv(F.held.liveSessions)}; at most ${F.held.liveSessionsMax} |
| visitors held per proxy instance at the SDK's polling rate | ${iv(F.held.visitorsPerInstance)}; at most ${f(F.held.visitorsPerInstanceMax)} |
${proxyNames.map((n) => `| ${n}: CPU per request | ${iv(F.cpu[n]!.usPerRequest, 0, ' µs')} |\n| ${n}: requests per second | ${iv(F.cpu[n]!.requestsPerS, 1)} |`).join('\n')}
| the service: CPU per service call | ${iv(F.serviceCpuUsPerCall, 0, ' µs')} |
| service heap per session kept (created or finished) | ${f(F.serviceHeapPerSession / 1024, 1)} KB |

Totals: ${F.admissions.totals.visitors} visitors, ${F.admissions.totals.created} sessions created, ${F.admissions.totals.refusedClient} creates
refused for the client's limits and ${F.admissions.totals.refusedOwner} for the owner's ceilings, ${F.admissions.totals.failed} failed, ${F.admissions.totals.requests} requests;
${r.sessions.length} sessions at the service (the Redis probe's included). Requests that failed outside the faults: ${F.quietFailures}.

${
  r.capacity
    ? `**The service alone** (scripts/soak/service-capacity.ts, media off, in one process, after the soak): ${r.capacity.sessions} sessions created at once (50 in flight) at ${r.capacity.createdPerS} a second, each read once at ${r.capacity.readPerS} a second and ended at ${r.capacity.endedPerS} a second; ${r.capacity.heapPerRunningSessionKB} KB of heap per running session, one timer each (its idle timeout: ${r.capacity.timersWhileRunning} while they ran, ${r.capacity.timersAfter} after). Its per-session timers and memory do not limit it at these counts.\n\n`
    : ''
}**Latency** at the proxy, as the visitors saw it (loopback, through the balancer model), per route; p50 and p99 per window:

| route | p50 | p99 | requests (quiet windows) |
|---|---|---|---|
${lat}

Status polls per instance: ${F.byInstance.map((b, i) => `${proxyNames[i]} p50 ${iv(b.p50, 1, ' ms')}, p99 ${iv(b.p99, 1, ' ms')}`).join('; ')}.

**Service calls per running session per minute**, counted at the service, per 5-second sample divided by the
session-minutes the service ran meanwhile:

| route | calls per session per minute |
|---|---|
${calls}

**Requests at the proxies per running session per minute**, as the visitors sent them, over the same samples:
${Object.entries(F.proxyRequests)
  .map(([k, v]) => `${k} ${iv(v, 2)}`)
  .join('; ')}.

**Redis round trips per operation**, measured before the load: ${r.probe.n} sessions created one at a time, each then
polled, sent one control event, renewed and ended; the proxies' own count of the commands they sent (a Lua script is
one round trip) and Redis's \`INFO commandstats\` deltas over the same steps (a script's own commands are counted
inside it, so Redis counts more):

| operation | round trips (commands sent) | \`INFO commandstats\` per operation |
|---|---|---|
${redisRows}

**Memory and handles** of each process: heap after a GC at the idle baseline (after a warm-up) → idle after the run;
RSS at the baseline / the peak during the run / after; open handles (\`process.getActiveResourcesInfo()\`):

| process | heap | RSS | handles |
|---|---|---|---|
${mem}

## Faults

Each fault from its start to ${FAULT_TAIL_MS / 1000} s after its repair${
    P.name === 'short'
      ? " (in the short profile the faults follow each other within seconds, so their windows overlap and a later fault's failures count in the earlier ones too)"
      : ''
  }: the requests made meanwhile and those that failed (a broken
connection, 502, 504, 503 for an unreachable store; 503 for the owner's ceilings and 429 are not failures), the
visitors that saw a failure, the time from the repair to the last failure, the time from the repair to the first
session created, and the sessions the service created during the fault. For the killed instance, "held" runs until
the restarted process listens again: the wait before the restart plus its start-up (TypeScript through tsx) on this
loaded machine; the balancer sends its share to the other instance meanwhile, and the restarted one gets its full
share at once, while its code is still cold.

| fault | at (UTC) | held | requests failed | visitors affected | recovered after repair | first create after repair | sessions created during |
|---|---|---|---|---|---|---|---|
${faults}

Clock skew is injected with a preload (scripts/soak/skew.mjs, \`node --import\`) that replaces \`Date\` in one proxy
process with a subclass whose \`now()\` and \`new Date()\` add an offset; the parent changes the offset at run time over
the IPC channel (\`{skewMs: 3000}\`, then \`{skewMs: 0}\`, a clock stepped back by NTP). Timers and \`performance.now()\`
are untouched, as on a VM whose wall clock drifted.

Run log:

\`\`\`
${r.log.join('\n')}
\`\`\`

## Scale on paper: 10 000 concurrent avatar sessions

**What the SDK asks of the service is bounded by its polling and keep-alive rates.** A session polls its status from
\`pollIntervalMs\` (default ${V.pollIntervalMs} ms), ×1.5 while the status is unchanged, up to \`maxPollIntervalMs\`
(default ${V.maxPollIntervalMs} ms), each delay jittered to 0.8–1.2×; a status change (\`QUEUED\` → \`ACTIVE\`) starts over
from the first interval. Keep-alive sends \`reset-idle-timeout\` at most every \`keepAliveMs\` (30 000 ms with
\`setKeepAlive(true)\`), and only while the user is active. So once the status settled, one session asks the service
at most 60 000 / (0.8 × maxPollIntervalMs) + 60 000 / keepAliveMs = **${f(bound, 1)} calls per minute**; token
renewals (every \`tokenTtlSeconds\` / 2, 450 s by default) cost Redis but no service call. Measured here:
**${f(serviceMeasured, 2)} service calls per running session per minute** (status reads ${f(F.serviceCalls['GET /liveai/sessions/:id']?.median, 2)}, control events ${f(F.serviceCalls['POST /liveai/sessions/:id/control']?.median, 2)}; half the visitors
keep-alive, sessions are short, so the first, faster polls weigh in). The proxy's per-session rate limit
(\`rateLimit.perSession\`, 120 requests a minute) is the hard ceiling whatever a page is configured to do. All three
rates are options of \`createAvatarSession\` (and of the React provider and the widget, which pass them on):
\`pollIntervalMs\`, \`maxPollIntervalMs\`, \`keepAliveMs\`; raising \`maxPollIntervalMs\` to 10 000 ms halves the status
reads, at the cost of learning of a service-side end up to 10 s later.

**10 000 concurrent sessions**, from the figures above (requests per running session per minute at the proxy:
${f(proxyPerMin, 2)}). The proxies' CPU per request measured here (the slower instance's median, ${f(cpuUs)} µs) is
inflated by the machine's load: the service spent ${f(F.serviceCpuUsPerCall.median)} µs per call in this run against
${SERVICE_US_QUIET} µs on a quieter machine (docs/proxy.md, "Overhead"), ${f(inflation, 1)}× as much; divided by that
factor the proxy's is about ${f(cpuQuiet)} µs per request (docs/proxy.md measured 250–420 µs per request without Redis).

| resource | per second | from |
|---|---|---|
| requests at the proxies | ${f(proxyRps)} | 10 000 × ${f(proxyPerMin, 2)} / 60 |
| proxy CPU, at this run's CPU per request | ${f(cores, 1)} cores | ${f(proxyRps)} req/s × ${f(cpuUs)} µs |
| proxy CPU, on machines of their own | ${f(coresQuiet, 1)} cores | ${f(proxyRps)} req/s × ${f(cpuQuiet)} µs |
| service calls | ${f(serviceRps)} | 10 000 × ${f(serviceMeasured, 2)} / 60; at most ${f((N * bound) / 60)} by the SDK's bound once sessions settled |
| Redis round trips | ${f(redisOps)} | ${f(redisPerReq, 2)} per proxy request, by the request mix and the probe's round trips |

So a site with 10 000 concurrent avatar sessions needs **${instances(coresQuiet)} proxy instances** on machines of their own
(one Node process per core, each at most 60 % busy, plus one to lose; ${instances(cores)} at this run's inflated CPU per request),
one Redis (${f(redisOps)} round trips a second is a small share of what one Redis core serves, typically 50 000–100 000
simple commands or short scripts a second), and a service account that accepts **about ${f(serviceRps)} calls a second**
from one API key, ${f(((F.serviceCalls['GET /liveai/sessions/:id']?.median ?? NaN) / Math.max(1e-9, serviceMeasured)) * 100)} % of them status reads.

**The first bottleneck is the service's rate limit on one API key**, which the service does not publish: every status
poll of every browser becomes one service call (the proxy does not cache or coalesce status reads), so the service
sees ${f(serviceRps)} calls a second long before the proxies or Redis are busy. The levers, in order: a longer
\`maxPollIntervalMs\` (the service's own end of a session is rare: the browser ends it, or the proxy ends it at the
maximum length and answers its own \`end_reason\`); keep-alive only where sessions are meant to stay idle; and, on the
proxy's side, a short-lived shared cache of status answers (not built). The next is the proxies' CPU, which grows
linearly and spreads over instances; Redis is far behind.

Run it yourself: \`npm run soak\` (this profile, about ${Math.round(r.durationS / 60)} minutes; rewrites this file), \`npx tsx scripts/soak/run.ts --profile short\`
(about 2.5 minutes, the same checks; \`--json FILE\` keeps the raw result). The short profile runs in \`npm test\` as
test/soak/soak.test.ts, with the invariants as assertions.
`;
}

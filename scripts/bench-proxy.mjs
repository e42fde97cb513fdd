#!/usr/bin/env node
// Proxy overhead: `GET /sessions/:id` through liveai-kit/server vs `GET /liveai/sessions/{id}` on the local
// service directly, on loopback, with autocannon. The service and the proxy each run in their own process
// (as in production), autocannon in this one; direct and proxied runs alternate to even out machine noise. A third
// target, a minimal hand-written Express + jose + undici route, is the baseline of the proxy's CPU per request.
//   node scripts/bench-proxy.mjs [--duration 5] [--connections 10] [--rounds 2] [--cpu-prof-dir DIR]
// (--cpu-prof-dir: the proxy and hand-written processes run with node --cpu-prof and leave their .cpuprofile in
// DIR/proxy and DIR/handwritten; scripts/bench/cpuprofile-top.mjs sums their self time by function.)
// `benchProxy()` is exported for `npm run bench`: latency percentiles in ms, throughput in req/s.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const API_KEY = 'dev-key-alice';
const SELF = fileURLToPath(import.meta.url);

/**
 * Starts this script in `--serve` mode in a child process (TypeScript through tsx).
 * @returns {Promise<{url: string, stop(): Promise<void>, cpu(): Promise<number>}>} cpu(): CPU µs used so far
 */
export function serve(kind, ...args) {
  // `--cpu-prof-dir DIR` (or LIVEAI_BENCH_PROF=DIR): the proxy and the hand-written route (both profiled, so the
  // profiler's own cost is the same on both sides) write a .cpuprofile into DIR/proxy and DIR/handwritten when they stop.
  const profDir = process.env.LIVEAI_BENCH_PROF;
  const prof = kind !== 'emulator' && profDir ? ['--cpu-prof', '--cpu-prof-dir', `${profDir}/${kind}`] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...prof, '--import', 'tsx', SELF, '--serve', kind, ...args], {
      cwd: fileURLToPath(new URL('../', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.once('exit', (code) => reject(new Error(`${kind} exited with code ${code}`)));
    child.stdout.on('data', (buf) => {
      const m = /READY (\S+)/.exec(String(buf));
      if (m) resolve({ url: m[1], stop: () => stopChild(child), cpu: () => cpuOf(child) });
    });
  });
}

/** CPU time the child has used so far (user + system), in µs. */
function cpuOf(child) {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m.user + m.system));
    child.send('cpu');
  });
}

/** SIGTERM, resolved once the child has exited (so a CPU profile is on disk). */
function stopChild(child) {
  child.removeAllListeners('exit');
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * One autocannon run. `procs`: server processes whose CPU time per request (µs) is reported as `cpuUs`: a
 * figure that other load on the machine barely changes, unlike req/s.
 */
export async function measure(url, headers, { duration, connections, method, body, procs = [] }) {
  const before = await Promise.all(procs.map((p) => p.cpu()));
  const r = await autocannon({ url, headers, connections, duration, ...(method ? { method, body } : {}) });
  const after = await Promise.all(procs.map((p) => p.cpu()));
  const cpuUs = procs.map((_, i) => Math.round((after[i] - before[i]) / Math.max(1, r.requests.total)));
  // autocannon's histogram has 1 ms resolution; for a closed loop, mean latency = connections / throughput (Little's law).
  return {
    mean: (connections * 1000) / r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    errors: r.errors + r.timeouts + r.non2xx,
    cpuUs,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summarise = (runs) => ({
  mean: Math.round(median(runs.map((r) => r.mean)) * 100) / 100,
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  rps: Math.round(median(runs.map((r) => r.rps))),
  errors: runs.reduce((n, r) => n + r.errors, 0),
  // CPU µs per request: of the service (direct), or of the proxy process (proxied).
  cpuUs: median(runs.map((r) => r.cpuUs.at(-1) ?? 0)),
});

/**
 * Proxy CPU per request ÷ the hand-written route's, the median of the rounds' ratios (each round runs both back to
 * back, so a change of load between rounds cancels out), to 2 decimals.
 */
export const cpuRatio = (runs) =>
  Math.round(median(runs.proxy.map((r, i) => (r.cpuUs.at(-1) ?? 0) / Math.max(1, runs.handwritten[i].cpuUs.at(-1) ?? 0))) * 100) / 100;

/** Rounds run and dropped before the measured ones (see {@link alternateRounds}). */
export const WARMUP_ROUNDS = 2;

/**
 * Runs `run(target)` once per target in each of `rounds` rounds, after {@link WARMUP_ROUNDS} rounds that are dropped:
 * a process's first seconds under load (the JIT compiling its hot paths, its caches filling) cost more CPU per request
 * than the rest, and a one-second warm-up left the first measured rounds up to 30 % off. The order is as given in
 * even rounds and reversed in odd ones, so no target always runs first or right after the same other one.
 * @returns {Promise<Record<string, unknown[]>>} each target's results, one per measured round
 */
export async function alternateRounds(targets, rounds, run) {
  const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let i = -WARMUP_ROUNDS; i < rounds; i++) {
    const entries = Object.entries(targets);
    for (const [name, target] of i % 2 ? entries.reverse() : entries) {
      const r = await run(target);
      if (i >= 0) runs[name].push(r);
    }
  }
  return runs;
}

/** The Daily room of the bench's session (never joined: rtc-b needs no media server here). */
const BENCH_DAILY_ROOM = 'https://r.test/x';

/**
 * Creates one rtc-b session through the proxy at `proxyUrl` (rtc-b needs no LiveKit) for the benchmarks.
 * @returns {Promise<{session_id: string, client_token: string}>} the proxy's create response
 * @throws Error when the proxy does not answer 201
 */
export async function createBenchSession(proxyUrl) {
  const res = await fetch(`${proxyUrl}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      agent_id: 'agent-demo',
      transport_type: 'rtc-b',
      properties: { rtc_b_url: BENCH_DAILY_ROOM, rtc_b_token: 't' },
    }),
  });
  const session = await res.json();
  if (res.status !== 201) throw new Error(`could not create a session: ${res.status} ${JSON.stringify(session)}`);
  return session;
}

/**
 * The service's id of the one session a fresh service holds. The proxy hands the browser an opaque handle; the
 * service and the hand-written proxy take the id behind it.
 * @throws Error when the service does not list exactly one session
 */
export async function onlyServiceSession(serviceUrl) {
  const listed = await (await fetch(`${serviceUrl}/liveai/sessions`, { headers: { 'x-api-key': API_KEY } })).json();
  const id = listed.sessions?.[0]?.session_id;
  if (listed.sessions?.length !== 1 || !id) throw new Error(`the service lists ${listed.sessions?.length} sessions, not 1`);
  return id;
}

/**
 * Measures the latency the proxy adds to `GET /sessions/:id` (client-token check, upstream call, validation).
 * @param {{duration?: number, connections?: number, rounds?: number}} options seconds per run (default 5),
 *   concurrent connections (default 10), alternating rounds per target (default 2; medians are reported)
 * @returns {Promise<{direct: Stats, proxy: Stats, handwritten: Stats, overheadMs: {mean:number, p50:number, p99:number},
 *   cpuRatio: number}>} (cpuRatio: see {@link cpuRatio}) where
 *   Stats = {mean, p50, p99 (latency, ms), rps (req/s), errors (count), cpuUs (CPU µs per request of the service
 *   process for direct, of the proxy process for proxied)}
 */
export async function benchProxy({ duration = 5, connections = 10, rounds = 2 } = {}) {
  const emulator = await serve('emulator');
  let proxy;
  let hand;
  try {
    proxy = await serve('proxy', emulator.url);
    hand = await serve('handwritten', emulator.url);
    const session = await createBenchSession(proxy.url);
    const serviceId = await onlyServiceSession(emulator.url);
    const targets = {
      direct: [`${emulator.url}/liveai/sessions/${serviceId}`, { 'x-api-key': API_KEY }, [emulator]],
      proxy: [`${proxy.url}/sessions/${session.session_id}`, { authorization: `Bearer ${session.client_token}` }, [emulator, proxy]],
      handwritten: [
        `${hand.url}/sessions/${serviceId}`,
        { authorization: `Bearer ${await handwrittenToken(serviceId)}` },
        [emulator, hand],
      ],
    };
    const runs = await alternateRounds(targets, rounds, ([url, headers, procs]) => measure(url, headers, { duration, connections, procs }));
    const direct = summarise(runs.direct);
    const prox = summarise(runs.proxy);
    const overheadMs = { mean: Math.round((prox.mean - direct.mean) * 100) / 100, p50: prox.p50 - direct.p50, p99: prox.p99 - direct.p99 };
    return { direct, proxy: prox, handwritten: summarise(runs.handwritten), overheadMs, cpuRatio: cpuRatio(runs) };
  } finally {
    await hand?.stop();
    await proxy?.stop();
    await emulator.stop();
  }
}

/** Secret of the hand-written route's own session tokens (HS256, `sub` = session_id). */
const SESSION_SECRET = 'bench-session-secret-0123456789abcdef-xyz';
const HANDWRITTEN_SECRET = new TextEncoder().encode('bench-handwritten-secret-0123456789abcdef');

/** A token the hand-written route accepts for `sessionId` (what its own create route would have returned). */
export async function handwrittenToken(sessionId) {
  const { SignJWT } = await import('jose');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sessionId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(HANDWRITTEN_SECRET);
}

/**
 * The baseline of the proxy CPU row: the minimal route a developer writes by hand with Express, jose and undici.
 * `GET /sessions/:id` and `POST /sessions/:id/control`: verify the Bearer JWT (jose, HS256, `sub` must be the id),
 * forward with the API key (undici), relay status and body. No caching, no body validation, no rate limits.
 */
async function handwrittenApp(upstream) {
  const { default: express } = await import('express');
  const { jwtVerify } = await import('jose');
  const { request } = await import('undici');
  const app = express();
  const auth = async (req, res, next) => {
    try {
      const { payload } = await jwtVerify(String(req.headers.authorization ?? '').replace(/^Bearer /, ''), HANDWRITTEN_SECRET, {
        algorithms: ['HS256'],
      });
      if (payload.sub !== req.params.id) return res.status(403).json({ detail: 'forbidden' });
      next();
    } catch {
      res.status(401).json({ detail: 'unauthorized' });
    }
  };
  const forward = async (res, path, init) => {
    const r = await request(`${upstream}/liveai${path}`, {
      ...init,
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    });
    res
      .status(r.statusCode)
      .type('application/json')
      .send(Buffer.from(await r.body.arrayBuffer()));
  };
  app.get('/api/avatar/sessions/:id', auth, (req, res, next) => forward(res, `/sessions/${req.params.id}`, { method: 'GET' }).catch(next));
  app.post('/api/avatar/sessions/:id/control', auth, express.json(), (req, res, next) =>
    forward(res, `/sessions/${req.params.id}/control`, { method: 'POST', body: JSON.stringify(req.body) }).catch(next),
  );
  return app;
}

/**
 * The metrics of `--serve proxy-metrics-on`: an OpenTelemetry SDK MeterProvider whose Prometheus exporter serves
 * nothing itself (as an app that mounts the exporter's handler on its own server), so every instrument records.
 */
async function benchMeterProvider() {
  const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
  const { PrometheusExporter } = await import('@opentelemetry/exporter-prometheus');
  return new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true })] });
}

/** `--serve emulator` / `--serve proxy <upstream>` / `--serve handwritten <upstream>`: one server per process, prints `READY <url>`. */
async function serveMode(kind, upstream) {
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
  process.on('message', (m) => m === 'cpu' && process.send(process.cpuUsage()));
  process.channel?.unref();
  if (kind === 'emulator') {
    const { createEmulator } = await import('../src/emulator/index.ts');
    const emulator = await createEmulator({ port: 0, media: false, queueMs: 10 });
    console.log(`READY ${emulator.url}`);
    return;
  }
  if (kind === 'handwritten') {
    const server = (await handwrittenApp(upstream)).listen(0, '127.0.0.1', () =>
      console.log(`READY http://127.0.0.1:${server.address().port}/api/avatar`),
    );
    return;
  }
  const { default: express } = await import('express');
  const { createAvatarProxy } = await import('../src/server/index.ts');
  const metrics =
    kind === 'proxy-metrics-off' ? false : kind === 'proxy-metrics-on' ? { meterProvider: await benchMeterProvider() } : undefined;
  const app = express();
  app.use(
    '/api/avatar',
    createAvatarProxy({
      upstream: { baseUrl: upstream, apiKey: API_KEY },
      sessionSecret: SESSION_SECRET,
      // Every protection on, as by default; only the per-session request budget is raised so the load itself
      // (thousands of requests a second on one session) is not refused.
      rateLimit: { perSession: 1_000_000_000 },
      // The bench's rtc-b session names its Daily room; by default the proxy refuses rooms the server did not choose.
      dailyRooms: [BENCH_DAILY_ROOM],
      ...(metrics === undefined ? {} : { metrics }),
    }),
  );
  const server = app.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${server.address().port}/api/avatar`));
}

if (process.argv[1] === SELF) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : def;
  };
  if (arg('cpu-prof-dir')) process.env.LIVEAI_BENCH_PROF = arg('cpu-prof-dir');
  if (arg('serve')) {
    await serveMode(arg('serve'), process.argv[process.argv.indexOf('--serve') + 2]);
  } else {
    const r = await benchProxy({
      duration: Number(arg('duration', 5)),
      connections: Number(arg('connections', 10)),
      rounds: Number(arg('rounds', 2)),
    });
    console.log('GET /sessions/:id on loopback (autocannon; service, proxy and load generator in separate processes)');
    console.table({ direct: r.direct, 'through proxy': r.proxy, 'hand-written Express + jose + undici route': r.handwritten });
    console.log(`added latency: mean ${r.overheadMs.mean} ms, p50 ${r.overheadMs.p50} ms, p99 ${r.overheadMs.p99} ms`);
    console.log(`proxy CPU per request: ${r.cpuRatio}× the hand-written route (median of the rounds' ratios)`);
    process.exit(0);
  }
}

// A row of `npm run bench -- --only metrics`: what the proxy's OpenTelemetry metrics cost. `GET /sessions/:id` (the
// browser's status poll, the proxy's most frequent request) through two proxies in their own processes: one with an
// OpenTelemetry SDK MeterProvider recording every instrument, one with `metrics: false`. Autocannon runs alternate
// between them; the figure is the proxy process's CPU time per request.
import { alternateRounds, createBenchSession, measure, serve } from '../bench-proxy.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Resolves `{ on, off, ratio }`: CPU µs per request of the proxy process with metrics recorded (`on`) and off (`off`),
 * medians over `rounds` alternating runs of `duration` s; `ratio` the median of the rounds' on ÷ off.
 */
export async function measureMetricsCost({ duration = 4, connections = 10, rounds = 5 } = {}) {
  const emulator = await serve('emulator');
  const procs = [];
  try {
    const on = await serve('proxy-metrics-on', emulator.url);
    procs.push(on);
    const off = await serve('proxy-metrics-off', emulator.url);
    procs.push(off);
    const targets = {};
    for (const [name, proxy] of Object.entries({ on, off })) {
      const s = await createBenchSession(proxy.url);
      targets[name] = {
        url: `${proxy.url}/sessions/${s.session_id}`,
        headers: { authorization: `Bearer ${s.client_token}` },
        procs: [emulator, proxy],
      };
    }
    const runs = await alternateRounds(targets, rounds, (t) => measure(t.url, t.headers, { duration, connections, procs: t.procs }));
    const cpu = (r) => r.cpuUs.at(-1) ?? 0;
    return {
      on: median(runs.on.map(cpu)),
      off: median(runs.off.map(cpu)),
      ratio: median(runs.on.map((r, i) => cpu(r) / cpu(runs.off[i]))),
      errors: [...runs.on, ...runs.off].reduce((n, r) => n + r.errors, 0),
      rps: { on: median(runs.on.map((r) => r.rps)), off: median(runs.off.map((r) => r.rps)) },
    };
  } finally {
    for (const p of procs) await p.stop();
    await emulator.stop();
  }
}

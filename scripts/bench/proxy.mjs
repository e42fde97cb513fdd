// Row 2 of `npm run bench`: proxy overhead. GET /sessions/:id comes from benchProxy() (scripts/bench-proxy.mjs);
// POST …/control (`reset-idle-timeout`, a control event that changes nothing) is measured here the same way: service
// and proxy each in their own process (bench-proxy.mjs --serve), autocannon in this one, direct and proxied runs alternating.
import {
  alternateRounds,
  benchProxy,
  cpuRatio,
  createBenchSession,
  handwrittenToken,
  measure,
  onlyServiceSession,
  serve,
} from '../bench-proxy.mjs';

const API_KEY = 'dev-key-alice';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** POST …/control, direct vs proxied: `{ direct: Stats[], proxy: Stats[] }`, one entry per round. */
async function benchControl({ duration, connections, rounds }) {
  const emulator = await serve('emulator');
  let proxy;
  let hand;
  try {
    proxy = await serve('proxy', emulator.url);
    hand = await serve('handwritten', emulator.url);
    const s = await createBenchSession(proxy.url);
    const id = await onlyServiceSession(emulator.url);
    const body = JSON.stringify({ event: 'reset-idle-timeout' });
    // The control route needs an ACTIVE session (queueMs is 10 in --serve mode).
    for (let t = Date.now(); Date.now() - t < 10_000;) {
      const st = await (await fetch(`${emulator.url}/liveai/sessions/${id}`, { headers: { 'x-api-key': API_KEY } })).json();
      if (st.session_status === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const targets = {
      direct: {
        url: `${emulator.url}/liveai/sessions/${id}/control`,
        headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
        procs: [emulator],
      },
      proxy: {
        url: `${proxy.url}/sessions/${s.session_id}/control`,
        headers: { authorization: `Bearer ${s.client_token}`, 'content-type': 'application/json' },
        procs: [emulator, proxy],
      },
      handwritten: {
        url: `${hand.url}/sessions/${id}/control`,
        headers: { authorization: `Bearer ${await handwrittenToken(id)}`, 'content-type': 'application/json' },
        procs: [emulator, hand],
      },
    };
    return await alternateRounds(targets, rounds, (t) =>
      measure(t.url, t.headers, { method: 'POST', body, connections, duration, procs: t.procs }),
    );
  } finally {
    await hand?.stop();
    await proxy?.stop();
    await emulator.stop();
  }
}

/**
 * Resolves `{ get: {direct, proxy, handwritten, cpuRatio}, control: {direct, proxy, handwritten, cpuRatio} }`, each side
 * `{ rps, p50, p99, errors, cpuUs }` (medians
 * over `rounds` runs of `duration` s with `connections` connections; errors summed; cpuUs = CPU µs per request of
 * the service process for direct, of the proxy process for proxied and hand-written). cpuRatio: proxy ÷ hand-written CPU
 * per request, the median of the rounds' ratios.
 */
export async function measureProxy({ duration = 5, connections = 10, rounds = 5 } = {}) {
  const get = await benchProxy({ duration, connections, rounds });
  const c = await benchControl({ duration, connections, rounds });
  const sum = (rs) => ({
    rps: Math.round(median(rs.map((r) => r.rps))),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    cpuUs: median(rs.map((r) => r.cpuUs.at(-1) ?? 0)),
  });
  return {
    get: { direct: get.direct, proxy: get.proxy, handwritten: get.handwritten, cpuRatio: get.cpuRatio },
    control: { direct: sum(c.direct), proxy: sum(c.proxy), handwritten: sum(c.handwritten), cpuRatio: cpuRatio(c) },
  };
}

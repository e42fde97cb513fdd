// Simulated visitors: what a browser running liveai-kit's session engine sends to the proxy, without a browser.
// Each visitor creates a session (`POST /sessions`, rtc-a), waits for its room join, polls the status with the
// engine's back-off (1000 ms, ×1.5 while the status is unchanged, up to 5000 ms, ±20 % jitter, back to 1000 ms when
// it changes), renews its client token past half its lifetime (`POST /sessions/:id/token`), sends keep-alives
// (`reset-idle-timeout` every 30 s while its user is active) and now and then another control event, stays a
// while, then ends (`POST /sessions/:id/end` and polls to the final status, as `session.end()` does), ends with the
// page-unload beacon (`text/plain {client_token}`, no polling), or just vanishes. Requests go through a load
// balancer model in front of the proxy instances: each request to a random instance that is up; a refused
// connection marks that instance down for 2 s and the request goes to the other one (it was never sent), as
// nginx's passive health checks do; a connection broken mid-request fails the request.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

/** One request as the visitor saw it; `status` -1 = network failure. Times in ms since the run started. */
export interface RequestRecord {
  t: number;
  /** The visitor that sent it. */
  visitor: number;
  route: string;
  instance: number;
  status: number;
  ms: number;
  detail?: string;
}

export type Exit = 'end' | 'beacon' | 'vanish';

/** One visitor's story, for the figures and the invariants. */
export interface VisitorRecord {
  id: number;
  client: string;
  arrivedAt: number;
  /** Status of its create call (-1: network failure). */
  createStatus: number;
  plan: Exit;
  /** The status the visitor last saw, and the proxy's `end_reason` if any. */
  lastStatus: string | null;
  endReason: string | null;
  activeAt: number | null;
  leftAt: number | null;
  /** The end call's status, when it made one. */
  endStatus: number | null;
}

export interface VisitorSettings {
  /** The SDK's polling: first interval and maximum, ms. */
  pollIntervalMs: number;
  maxPollIntervalMs: number;
  /** Keep-alive interval of an active user, ms (the SDK's `setKeepAlive(true)` default: 30000). */
  keepAliveMs: number;
  /** Share of visitors whose user keeps the page active (keep-alive on). */
  keepAliveShare: number;
  /** Mean stay, ms (exponential), and the longest. */
  meanStayMs: number;
  maxStayMs: number;
  /** How visitors leave: shares of `end`, `beacon`; the rest vanish. */
  endShare: number;
  beaconShare: number;
  /** The SDK's wait for the final status after `/end`, ms (`endTimeoutMs`, default 15000). */
  endTimeoutMs: number;
}

const now0 = performance.now();
export const clock = () => performance.now() - now0;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
const jitter = (ms: number) => ms * (0.8 + Math.random() * 0.4);

/** The load balancer and the request log. */
export class Traffic {
  readonly records: RequestRecord[] = [];
  private readonly downUntil: number[];
  readonly agent = new Agent({ connections: 512, keepAliveTimeout: 4000, pipelining: 1 });
  constructor(readonly instances: string[]) {
    this.downUntil = instances.map(() => 0);
  }

  private pick(exclude?: number): number {
    const t = clock();
    const up = this.instances.map((_, i) => i).filter((i) => i !== exclude && this.downUntil[i]! <= t);
    const pool = up.length > 0 ? up : this.instances.map((_, i) => i).filter((i) => i !== exclude);
    return pool[Math.floor(Math.random() * pool.length)] ?? 0;
  }

  async call(
    visitor: number,
    route: string,
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; json: Record<string, unknown>; retryAfter?: number }> {
    let instance = this.pick();
    for (let attempt = 0; ; attempt += 1) {
      const start = clock();
      try {
        const res = await request(`${this.instances[instance]}${path}`, {
          method,
          headers,
          body,
          dispatcher: this.agent,
          headersTimeout: 30_000,
          bodyTimeout: 30_000,
        });
        const text = await res.body.text();
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          /* not JSON: recorded by its status */
        }
        const rec: RequestRecord = { t: start, visitor, route, instance, status: res.statusCode, ms: clock() - start };
        if (res.statusCode >= 500) rec.detail = String(json.detail ?? text).slice(0, 160);
        this.records.push(rec);
        const ra = Number(res.headers['retry-after']);
        return { status: res.statusCode, json, retryAfter: Number.isFinite(ra) ? ra : undefined };
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        if (code === 'ECONNREFUSED' && attempt === 0) {
          // Never sent: the balancer marks the instance down and tries the other one.
          this.downUntil[instance] = clock() + 2000;
          instance = this.pick(instance);
          continue;
        }
        this.records.push({ t: start, visitor, route, instance, status: -1, ms: clock() - start, detail: code || String(e).slice(0, 80) });
        return { status: -1, json: {} };
      }
    }
  }
}

/** `exp` and `iat` of a client token (s), read without checking it, as the SDK does. */
function tokenTimes(token: string): { exp: number; iat: number } | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp?: number; iat?: number };
    return typeof claims.exp === 'number' && typeof claims.iat === 'number' ? { exp: claims.exp, iat: claims.iat } : null;
  } catch {
    return null;
  }
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'TIMED_OUT']);
const retryable = (status: number) => status === -1 || status === 429 || status >= 500;

/** One visitor, start to finish. `stop` makes it leave now (by its plan). */
export async function runVisitor(
  traffic: Traffic,
  s: VisitorSettings,
  v: { id: number; client: string; agentId: string },
  stop: AbortSignal,
): Promise<VisitorRecord> {
  const r = Math.random();
  const plan: Exit = r < s.endShare ? 'end' : r < s.endShare + s.beaconShare ? 'beacon' : 'vanish';
  const rec: VisitorRecord = {
    id: v.id,
    client: v.client,
    arrivedAt: clock(),
    createStatus: 0,
    plan,
    lastStatus: null,
    endReason: null,
    activeAt: null,
    leftAt: null,
    endStatus: null,
  };
  const base = { 'x-forwarded-for': v.client };
  const json = { ...base, 'content-type': 'application/json' };
  const created = await traffic.call(
    v.id,
    'create',
    'POST',
    '/sessions',
    json,
    JSON.stringify({ transport_type: 'rtc-a', agent_id: v.agentId, agent_prompt: `soak client=${v.client} visitor=${v.id}` }),
  );
  rec.createStatus = created.status;
  if (created.status !== 201) {
    rec.leftAt = clock();
    return rec;
  }
  const handle = encodeURIComponent(String(created.json.session_id));
  let token = String(created.json.client_token);
  const stay = Math.min(s.maxStayMs, -Math.log(1 - Math.random()) * s.meanStayMs);
  const leaveAt = clock() + stay;
  const keepAlive = Math.random() < s.keepAliveShare;
  const controlAt = Math.random() < 0.3 ? clock() + Math.random() * stay : Infinity;
  let nextKeepAlive = Infinity;

  /** The SDK's `fresh()`: renew a token past half its lifetime before a session call. */
  const fresh = async () => {
    const times = tokenTimes(token);
    if (!times || (times.exp - Date.now() / 1000) / Math.max(1, times.exp - times.iat) > 0.5) return token;
    const res = await traffic.call(v.id, 'token', 'POST', `/sessions/${handle}/token`, { ...base, authorization: `Bearer ${token}` });
    if (res.status === 200 && typeof res.json.client_token === 'string') token = res.json.client_token;
    return token;
  };
  let interval = s.pollIntervalMs;
  let last: string | undefined;
  /** One status poll with the SDK's back-off; true while polling goes on. */
  const poll = async (): Promise<boolean> => {
    const res = await traffic.call(v.id, 'status', 'GET', `/sessions/${handle}`, { ...base, authorization: `Bearer ${await fresh()}` });
    if (res.status === 200) {
      const status = String(res.json.session_status);
      if (typeof res.json.end_reason === 'string') rec.endReason = res.json.end_reason;
      const changed = status !== last;
      last = status;
      rec.lastStatus = status;
      if (status === 'ACTIVE' && rec.activeAt === null) {
        rec.activeAt = clock();
        if (keepAlive) nextKeepAlive = clock() + s.keepAliveMs;
      }
      interval = changed ? s.pollIntervalMs : Math.min(s.maxPollIntervalMs, Math.max(s.pollIntervalMs, Math.round(interval * 1.5)));
      return !FINAL.has(status);
    }
    interval = Math.min(s.maxPollIntervalMs, Math.max(s.pollIntervalMs, Math.round(interval * 1.5)));
    return retryable(res.status);
  };
  const control = async (event: Record<string, unknown>, route: string) => {
    await traffic.call(
      v.id,
      route,
      'POST',
      `/sessions/${handle}/control`,
      { ...json, authorization: `Bearer ${await fresh()}` },
      JSON.stringify(event),
    );
  };

  // The room join (no WebRTC here): the first poll once it settled, at the latest 1 s after the create answer.
  await sleep(200 + Math.random() * 500, stop);
  let polling = true;
  while (polling && clock() < leaveAt && !stop.aborted) {
    polling = await poll();
    if (!polling) break;
    if (rec.activeAt !== null && clock() >= nextKeepAlive) {
      nextKeepAlive = clock() + s.keepAliveMs;
      await control({ event: 'reset-idle-timeout' }, 'keep-alive');
    }
    if (rec.activeAt !== null && clock() >= controlAt) {
      await control(
        Math.random() < 0.5 ? { event: 'action', action: 'wave' } : { event: 'update-agent-prompt', agent_prompt: 'cheerful' },
        'control',
      );
    }
    await sleep(Math.min(jitter(interval), Math.max(0, leaveAt - clock())), stop);
  }
  if (last !== undefined && FINAL.has(last)) {
    rec.leftAt = clock();
    return rec; // the service ended it (maximum length, idle timeout, a failure): nothing left to end
  }
  if (plan === 'end') {
    const res = await traffic.call(v.id, 'end', 'POST', `/sessions/${handle}/end`, { ...json, authorization: `Bearer ${token}` }, '{}');
    rec.endStatus = res.status;
    // `session.end()`: poll to the final status, from the first interval, for at most endTimeoutMs.
    interval = s.pollIntervalMs;
    const until = clock() + s.endTimeoutMs;
    while (clock() < until && (await poll())) await sleep(jitter(interval));
  } else if (plan === 'beacon') {
    const res = await traffic.call(
      v.id,
      'end-beacon',
      'POST',
      `/sessions/${handle}/end`,
      { ...base, 'content-type': 'text/plain;charset=UTF-8' },
      JSON.stringify({ client_token: token }),
    );
    rec.endStatus = res.status;
  }
  rec.leftAt = clock();
  return rec;
}

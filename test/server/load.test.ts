import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index';
import { SessionListSchema } from '../../src/core/schemas';
import { listen, proxyApp, proxyOptions, waitFor, type Emulator, serviceId } from './helpers';

/**
 * Issue 7, load: 200 simulated browsers (plain fetch clients, loopback only) each create a hosted room
 * through the real proxy in front of the real emulator (media off), poll until ACTIVE, then end it.
 * No 5xx, no session lost, and the service saw exactly 200 sessions.
 */
const CLIENTS = 200;
const LOAD_KEY = 'dev-key-load';
const seed = {
  accounts: [{ api_key: LOAD_KEY, credits: 100_000, agents: [{ agent_id: 'agent-load', image_url: '/liveai/assets/agent-load.png' }] }],
};

let emulator: Emulator;
let proxy: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, media: false, queueMs: 50, seed });
  proxy = await listen(proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: LOAD_KEY }, rateLimit: false })));
});
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
});

interface ClientResult {
  sessionId: string;
  statuses: number[];
  sawActive: boolean;
  ended: boolean;
}

/** One simulated browser: create → poll until ACTIVE → end. Records every HTTP status it saw. */
async function browserClient(base: string): Promise<ClientResult> {
  const statuses: number[] = [];
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}/api/avatar${path}`, init);
    statuses.push(res.status);
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const created = await call('/rooms', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 'agent-load' }),
  });
  if (created.status !== 201) return { sessionId: '', statuses, sawActive: false, ended: false };
  const sessionId = String(created.body.session_id);
  const auth = { authorization: `Bearer ${String(created.body.client_token)}` };
  const sawActive = await waitFor(async () => {
    const s = await call(`/sessions/${sessionId}`, { headers: auth });
    if (s.status !== 200) return false;
    return s.body.session_status === 'ACTIVE' ? true : undefined;
  }, 30_000);
  const end = await call(`/sessions/${sessionId}/end`, { method: 'POST', headers: auth });
  // The browser holds a handle; the service knows the session by its own id.
  return { sessionId: await serviceId(sessionId), statuses, sawActive, ended: end.status === 200 && end.body.success === true };
}

/** Every session the service lists for the account (GET /liveai/sessions, all pages). */
async function upstreamSessions(): Promise<{ session_id: string; session_status: string }[]> {
  const out: { session_id: string; session_status: string }[] = [];
  for (let page = 1; ; page += 1) {
    const res = await fetch(`${emulator.url}/liveai/sessions?page=${page}&limit=100`, { headers: { 'x-api-key': LOAD_KEY } });
    expect(res.status).toBe(200);
    const body = v.parse(SessionListSchema, await res.json());
    out.push(...body.sessions);
    if (!body.pagination.has_more) return out;
  }
}

describe('load: 200 concurrent browsers through the proxy', () => {
  it('creates, activates and ends every session with no 5xx and none lost', async () => {
    const results = await Promise.all(Array.from({ length: CLIENTS }, () => browserClient(proxy.url)));

    const all = results.flatMap((r) => r.statuses);
    expect(all.filter((s) => s >= 500)).toEqual([]);
    expect(results.filter((r) => r.sessionId === '')).toHaveLength(0);
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(CLIENTS);
    expect(results.every((r) => r.sawActive && r.ended)).toBe(true);

    // Every session the browsers created reaches COMPLETED on the service, and the service has exactly 200.
    const listed = await waitFor(async () => {
      const l = await upstreamSessions();
      return l.every((s) => s.session_status === 'COMPLETED') ? l : undefined;
    }, 20_000);
    expect(listed).toHaveLength(CLIENTS);
    expect(new Set(listed.map((s) => s.session_id))).toEqual(new Set(results.map((r) => r.sessionId)));
    for (const r of results) expect(emulator.state.session(r.sessionId)?.session_status).toBe('COMPLETED');
  });
});

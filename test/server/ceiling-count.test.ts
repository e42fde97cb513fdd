import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAvatarHandler, issueClientToken, type AvatarHandlerOptions } from '../../src/server/index';
import { createServiceClient } from '../../src/server/service/client';
import { ALICE, LIVEKIT, SECRET, startEmulator, waitFor, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * Issue 35 item 3: the service is the ground truth for counting. A proxy that does not know what runs (a new
 * process, a lost store) counts the account's running sessions at the service before it admits a create, and
 * refuses (503 with `Retry-After`) while it cannot; it ends sessions it finds only when the operator opts in.
 */
let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator(5);
});
afterEach(async () => {
  await emulator.close();
});

const make = (extra: Partial<AvatarHandlerOptions> = {}) =>
  createAvatarHandler({
    basePath: '/api',
    upstream: { baseUrl: emulator.url, apiKey: ALICE },
    sessionSecret: SECRET,
    livekit: LIVEKIT,
    rateLimit: false,
    logger: quietLogger(),
    ...extra,
  });
const create = (h: ReturnType<typeof make>, ip: string) =>
  h(
    new Request('https://proxy.example/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
    }),
    { remoteAddress: ip },
  );
/** Sessions another system started with the same API key (e.g. an agent server). */
async function elsewhere(n: number): Promise<string[]> {
  const service = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await service.createRoom({ agent_id: 'agent-demo' })).session_id);
  return ids;
}
const running = (id: string) => /QUEUED|ACTIVE/.test(emulator.state.session(id)!.session_status);

describe("the owner's ceiling is counted at the service", () => {
  it('a fresh proxy counts the sessions that already run: 2 running, a ceiling of 3, one more create', async () => {
    const ids = await elsewhere(2);
    const h = make({ ownerLimits: { maxConcurrent: 3 } });
    expect((await create(h, '198.51.100.1')).status).toBe(201);
    const busy = await create(h, '198.51.100.2');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
    // Found sessions are counted, never ended by default (other systems may share the API key).
    expect(ids.every(running)).toBe(true);
  });

  it('a create is never admitted on a ceiling the proxy cannot count: 503 with Retry-After', async () => {
    let lists = 0;
    const failingList: typeof fetch = (input, init) => {
      if ((init?.method ?? 'GET') !== 'GET' || new URL(String(input)).pathname !== '/liveai/sessions') return fetch(input, init);
      lists += 1;
      return Promise.resolve(new Response(JSON.stringify({ detail: 'boom' }), { status: 500 }));
    };
    const h = make({ upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: failingList, retries: 0 } });
    const refused = await create(h, '198.51.100.1');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/cannot count the running avatar sessions/);
    // Refused at once while the count keeps failing: one list call, not one per create.
    for (let i = 0; i < 5; i++) expect((await create(h, `198.51.100.${i + 2}`)).status).toBe(503);
    expect(lists).toBe(1);
    expect(emulator.state.credits(ALICE)).toBe(100);
  });

  it('endFoundSessions: true ends sessions found running once past the maximum length since their creation', async () => {
    const ids = await elsewhere(2);
    const h = make({ ownerLimits: { maxConcurrent: 2, endFoundSessions: true }, sessionLimits: { maxDurationMs: 1000 } });
    expect((await create(h, '198.51.100.1')).status).toBe(503);
    // The proxy's sweep ends them (control terminate) once their maximum length has passed; then a create fits.
    await waitFor(async () => (ids.some(running) ? undefined : true));
    await waitFor(async () => ((await create(h, '198.51.100.1')).status === 201 ? true : undefined));
  });

  it('an attached session: its deadline is sealed at attach, and found by a count it holds one place, not two', async () => {
    const [id] = await elsewhere(1);
    const h = make({ ownerLimits: { maxConcurrent: 2 } });
    // The first create counts the server-made session: two run now.
    expect((await create(h, '198.51.100.1')).status).toBe(201);
    const issued = await issueClientToken({ sessionSecret: SECRET, maxDurationMs: 1500 }, id!);
    const deadline = Date.now() + 1500;
    expect(Date.parse(issued.expires_at)).toBeLessThanOrEqual(deadline);
    const call = (path: string, init: RequestInit = {}) =>
      h(
        new Request(`https://proxy.example/api/sessions/${issued.session_id}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${issued.client_token}`, 'content-type': 'application/json' },
        }),
        { remoteAddress: '198.51.100.2' },
      );
    expect((await call('')).status).toBe(200);
    expect((await create(h, '198.51.100.3')).status).toBe(503);
    while (Date.now() <= deadline) await new Promise((r) => setTimeout(r, 50));
    const control = await call('/control', { method: 'POST', body: JSON.stringify({ event: 'reset-idle-timeout' }) });
    expect(control.status).toBe(403);
    expect(running(id!)).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createAvatarHandler, issueClientToken, type AvatarProxyOptions } from '../../src/server/index';
import { createServiceClient } from '../../src/server/service/client';
import {
  ALICE,
  SECRET,
  countingFetch,
  listen,
  openWebSocket,
  png,
  proxyApp,
  proxyOptions,
  serviceId,
  startEmulator,
  waitFor,
  type Emulator,
} from './helpers';

/**
 * Issue 24, items 4, 5, 7, 8 and 11, on both adapters (the Express router and the Fetch handler) in front of the
 * real local service: each test is an attack from the issue, with the answer it must get now.
 */
let emulator: Emulator;
const counter = countingFetch();
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  for (const close of closers) await close();
  await emulator.close();
});

type Reply = { status: number; body: Record<string, unknown> };
interface Proxy {
  call(method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>, ip?: string): Promise<Reply>;
}

const adapters: Record<string, (extra: Partial<AvatarProxyOptions<never>>) => Promise<Proxy>> = {
  express: async (extra) => {
    const server = await listen(proxyApp(proxyOptions(emulator.url, { upstream: { fetch: counter.fetch } as never, ...extra } as never)));
    closers.push(server.close);
    return {
      async call(method, path, body, headers = {}) {
        const res = await fetch(`${server.url}/api/avatar${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
    };
  },
  fetch: async (extra) => {
    const options = proxyOptions(emulator.url, { upstream: { fetch: counter.fetch } as never, ...extra } as never);
    const handler = createAvatarHandler({ ...(options as AvatarProxyOptions<never>), basePath: '/api/avatar' } as never);
    return {
      async call(method, path, body, headers = {}, ip = '198.51.100.7') {
        const req = new Request(`http://127.0.0.1/api/avatar${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const res = await handler(req, { remoteAddress: ip });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
    };
  },
};

const bearer = (token: unknown) => ({ authorization: `Bearer ${String(token)}` });
const service = () => createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
const RTC_A = { agent_id: 'agent-demo', transport_type: 'rtc-a' };

describe.each(Object.keys(adapters))('%s adapter', (name) => {
  const make = adapters[name]!;

  describe('item 4: the agents allow-list covers the face', () => {
    it('update-image is refused (403) when the operator fixes the agents, unless imageChanges opens it', async () => {
      // Attack (before): with agents: ['agent-demo'], update-image with any image_base64 answered 200.
      const image_base64 = (await png(8, 8)).toString('base64');
      const fixed = await make({ agents: ['agent-demo'] });
      const s = (await fixed.call('POST', '/sessions', RTC_A)).body;
      const calls = counter.calls;
      for (const event of [
        { event: 'update-image', image_base64 },
        { event: 'update-image', image_url: 'https://img.example/a.png' },
      ]) {
        const r = await fixed.call('POST', `/sessions/${String(s.session_id)}/control`, event, bearer(s.client_token));
        expect(r).toEqual({ status: 403, body: { detail: 'Changing the avatar image is not allowed here (see the imageChanges option)' } });
      }
      expect(counter.calls).toBe(calls);
      // Other control events still pass.
      const prompt = await fixed.call(
        'POST',
        `/sessions/${String(s.session_id)}/control`,
        { event: 'reset-idle-timeout' },
        bearer(s.client_token),
      );
      expect(prompt.status).toBe(200);

      const open = await make({ agents: ['agent-demo'], imageChanges: true });
      const o = (await open.call('POST', '/sessions', RTC_A)).body;
      const ok = await open.call(
        'POST',
        `/sessions/${String(o.session_id)}/control`,
        { event: 'update-image', image_base64 },
        bearer(o.client_token),
      );
      expect(ok.status).toBe(200);

      // A predicate `agents` decides as it does for a custom image at create.
      const byPredicate = await make({ agents: (agentId) => agentId !== undefined });
      const p = (await byPredicate.call('POST', '/sessions', RTC_A)).body;
      const no = await byPredicate.call(
        'POST',
        `/sessions/${String(p.session_id)}/control`,
        { event: 'update-image', image_base64 },
        bearer(p.client_token),
      );
      expect(no.status).toBe(403);
    });
  });

  describe('item 5: the browser holds a handle, not the service’s session id', () => {
    it('the session_id a browser gets means nothing at the service; the service’s id is nowhere in the answer', async () => {
      // Attack (before): 150 of 150 direct calls to the service's control endpoint with the browser's session_id,
      // no key and no token, were accepted.
      const proxy = await make({});
      const created = await proxy.call('POST', '/sessions', RTC_A);
      expect(created.status).toBe(201);
      const handle = String(created.body.session_id);
      const real = await serviceId(handle);
      expect(handle).not.toBe(real);
      expect(JSON.stringify(created.body)).not.toContain(real);
      expect(JSON.stringify(decodeJwt(String(created.body.client_token)))).not.toContain(real);
      const direct = await fetch(`${emulator.url}/liveai/sessions/${encodeURIComponent(handle)}/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'update-agent-prompt', agent_prompt: 'say something else' }),
      });
      expect(direct.status).toBe(404);
      // Through the proxy the handle works, and is the same thing the service knows by its own id.
      const status = await proxy.call('GET', `/sessions/${encodeURIComponent(handle)}`, undefined, bearer(created.body.client_token));
      expect(status.status).toBe(200);
      const renewed = await proxy.call('POST', `/sessions/${handle}/token`, {}, bearer(created.body.client_token));
      expect(renewed.status).toBe(200);
      expect(decodeJwt(String(renewed.body.client_token)).sub).toBe(handle);
      // A handle of another secret (or made up) is refused before the service is asked.
      const forged = await proxy.call('GET', `/sessions/${real}`, undefined, bearer(created.body.client_token));
      expect(forged.status).toBe(403);
      await proxy.call('POST', `/sessions/${handle}/end`, {}, bearer(created.body.client_token));
    });

    it('the admin lists show handles too: no service id reaches the admin page, and a listed id opens nothing at the service', async () => {
      // Attack (before): `GET /sessions` and `GET /rooms` answered the service's own session ids to the admin page
      // (`useSessionList`, `SessionList`), each one accepted by the service's control endpoint without a key.
      const proxy = await make({ admin: () => true });
      const room = await proxy.call('POST', '/rooms', { agent_id: 'agent-demo' });
      const created = await proxy.call('POST', '/sessions', RTC_A);
      expect([room.status, created.status]).toEqual([201, 201]);
      const ids = [await serviceId(String(room.body.session_id)), await serviceId(String(created.body.session_id))];
      const rooms = await proxy.call('GET', '/rooms?limit=100');
      const sessions = await proxy.call('GET', '/sessions?limit=100');
      expect([rooms.status, sessions.status]).toEqual([200, 200]);
      const listed = [...(rooms.body.rooms as { session_id: string }[]), ...(sessions.body.sessions as { session_id: string }[])];
      for (const id of ids) {
        expect(JSON.stringify([rooms.body, sessions.body])).not.toContain(id);
        // Each session is listed, under a handle that the proxy opens to its service id …
        const opened = await Promise.all(listed.map((item) => serviceId(item.session_id)));
        expect(opened).toContain(id);
      }
      // … and that the service does not know.
      const handle = listed.find((item) => item.session_id.length > 100)!.session_id;
      const direct = await fetch(`${emulator.url}/liveai/sessions/${encodeURIComponent(handle)}/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'terminate' }),
      });
      expect(direct.status).toBe(404);
      // A listed handle is not a capability at the proxy either: it needs that session's client token.
      expect((await proxy.call('POST', `/sessions/${handle}/end`, {})).status).toBe(401);
      await proxy.call('POST', `/sessions/${String(room.body.session_id)}/end`, {}, bearer(room.body.client_token));
      await proxy.call('POST', `/sessions/${String(created.body.session_id)}/end`, {}, bearer(created.body.client_token));
    });

    it('attach: issueClientToken hands out a handle, and the token works only with it', async () => {
      const proxy = await make({});
      const id = (await service().createRoom({ agent_id: 'agent-demo' })).session_id;
      const issued = await issueClientToken({ sessionSecret: SECRET }, id);
      expect(issued.session_id).not.toBe(id);
      expect(JSON.stringify(issued)).not.toContain(id);
      expect((await proxy.call('GET', `/sessions/${issued.session_id}`, undefined, bearer(issued.client_token))).status).toBe(200);
      expect((await proxy.call('GET', `/sessions/${id}`, undefined, bearer(issued.client_token))).status).toBe(403);
      await service().control(id, { event: 'terminate' });
    });
  });

  describe('item 7: attached sessions get the bounds of created ones', () => {
    it('issueClientToken allows at most a day (default 900 s), as the proxy’s own tokens', async () => {
      // Attack (before): default 7200 s, up to 604800 s.
      await expect(issueClientToken({ sessionSecret: SECRET, tokenTtlSeconds: 604_800 }, 'x')).rejects.toThrow(/60 to 86400/);
      const t = await issueClientToken({ sessionSecret: SECRET }, 'some-session');
      expect(Date.parse(t.expires_at) - Date.now()).toBeLessThanOrEqual(900_000);
    });

    it('an attached session is ended at the maximum length, and then cannot be controlled or renewed', async () => {
      // Attack (before): with a 3 s maximum, an attached session was still controllable and renewable at 8 s.
      const proxy = await make({ sessionLimits: { maxDurationMs: 1000 } });
      const id = (await service().createRoom({ agent_id: 'agent-demo' })).session_id;
      const issued = await issueClientToken({ sessionSecret: SECRET }, id);
      const path = `/sessions/${issued.session_id}`;
      expect((await proxy.call('GET', path, undefined, bearer(issued.client_token))).status).toBe(200);
      const ended = await waitFor(async () => {
        const r = await proxy.call('POST', `${path}/control`, { event: 'reset-idle-timeout' }, bearer(issued.client_token));
        return r.status === 403 ? r : undefined;
      }, 15_000);
      expect(ended.body.detail).toMatch(/has ended/);
      expect((await proxy.call('POST', `${path}/token`, {}, bearer(issued.client_token))).status).toBe(403);
      const status = await proxy.call('GET', path, undefined, bearer(issued.client_token));
      expect(status.body).toMatchObject({ session_status: 'COMPLETED', end_reason: 'max_duration' });
      expect((await service().getSession(id)).session_status).toBe('COMPLETED');
    });

    it('an attached session takes a slot of its browser’s running-session cap', async () => {
      const proxy = await make({ sessionLimits: { maxConcurrent: 1 } });
      const own = await proxy.call('POST', '/sessions', RTC_A, {}, '198.51.100.7');
      expect(own.status).toBe(201);
      const id = (await service().createRoom({ agent_id: 'agent-demo' })).session_id;
      const issued = await issueClientToken({ sessionSecret: SECRET }, id);
      // Express sees the loopback peer, the Fetch handler the address given: the same client as the create either way.
      const r = await proxy.call('GET', `/sessions/${issued.session_id}`, undefined, bearer(issued.client_token), '198.51.100.7');
      expect(r.status).toBe(429);
      expect(r.body.detail).toMatch(/At most 1 sessions may run at once/);
      await proxy.call('POST', `/sessions/${String(own.body.session_id)}/end`, {}, bearer(own.body.client_token), '198.51.100.7');
      const after = await proxy.call('GET', `/sessions/${issued.session_id}`, undefined, bearer(issued.client_token), '198.51.100.7');
      expect(after.status).toBe(200);
      await proxy.call('POST', `/sessions/${issued.session_id}/end`, {}, bearer(issued.client_token), '198.51.100.7');
    });
  });

  describe('item 8: the browser cannot pick the Daily room', () => {
    it('a browser’s rtc_b_url is refused (403) by default, before the service is called; dailyRooms opens hosts or rooms', async () => {
      // Attack (before): rtc_b_url https://attacker…/live-show was forwarded as is (201).
      const attacker = { rtc_b_url: 'https://attacker.example/live-show', rtc_b_token: 't' };
      const closed = await make({});
      const calls = counter.calls;
      for (const body of [
        { agent_id: 'agent-demo', transport_type: 'rtc-b', properties: attacker },
        { agent_id: 'agent-demo', transport_type: 'websocket-rtc-b', rtc_b_properties: attacker },
      ]) {
        const r = await closed.call('POST', '/sessions', body);
        expect(r.status).toBe(403);
        expect(r.body.detail).toMatch(/dailyRooms/);
      }
      expect(counter.calls).toBe(calls);

      const open = await make({ dailyRooms: ['acme.daily.example', 'https://other.daily.example/show'] });
      const tryRoom = (url: string) =>
        open.call('POST', '/sessions', {
          agent_id: 'agent-demo',
          transport_type: 'rtc-b',
          properties: { rtc_b_url: url, rtc_b_token: 't' },
        });
      expect((await tryRoom('https://acme.daily.example/any-room')).status).toBe(201);
      expect((await tryRoom('https://other.daily.example/show/')).status).toBe(201);
      expect((await tryRoom('https://other.daily.example/another')).status).toBe(403);
      expect((await tryRoom('http://acme.daily.example/plain-http')).status).toBe(403);
      expect((await tryRoom('https://acme.daily.example.attacker.example/x')).status).toBe(403);
    });
  });

  describe('item 11: no renewal or control once the service ended the session', () => {
    it('after the service reports COMPLETED or FAILED, renewal and control answer 403', async () => {
      // Attack (before): renewal answered 200 after the service had ended the session.
      const proxy = await make({});
      for (const end of ['terminate', 'fail'] as const) {
        const s = (await proxy.call('POST', '/sessions', RTC_A)).body;
        const path = `/sessions/${String(s.session_id)}`;
        const real = await serviceId(String(s.session_id));
        if (end === 'terminate') await service().control(real, { event: 'terminate' });
        else await fetch(`${emulator.url}/__emulator/sessions/${real}/fail`, { method: 'POST' }).then((r) => expect(r.status).toBe(200));
        const renew = await proxy.call('POST', `${path}/token`, {}, bearer(s.client_token));
        expect(renew).toEqual({ status: 403, body: { detail: 'This session has ended; its token can only read its status' } });
        const control = await proxy.call('POST', `${path}/control`, { event: 'reset-idle-timeout' }, bearer(s.client_token));
        expect(control.status).toBe(403);
        const status = await proxy.call('GET', path, undefined, bearer(s.client_token));
        expect(status.body.session_status).toBe(end === 'terminate' ? 'COMPLETED' : 'FAILED');
        expect((await proxy.call('POST', `${path}/end`, {}, bearer(s.client_token))).status).toBe(200);
      }
    });
  });
});

describe('item 5: the audio WebSocket goes through the proxy', () => {
  const pcm = Buffer.alloc(640);
  const open = openWebSocket;

  it('Express: websocket_address is the proxy’s relay; audio reaches the avatar; other origins and ended sessions are refused', async () => {
    const server = await listen(proxyApp(proxyOptions(emulator.url)));
    closers.push(server.close);
    const create = await fetch(`${server.url}/api/avatar/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' }),
    });
    const s = (await create.json()) as Record<string, string>;
    expect(create.status).toBe(201);
    const real = await serviceId(s.session_id!);
    const address = s.websocket_address!;
    expect(
      address.startsWith(`${server.url.replace('http', 'ws')}/api/avatar/sessions/${encodeURIComponent(s.session_id!)}/ws?ticket=`),
    ).toBe(true);
    expect(address).not.toContain(real);
    expect(address).not.toContain(new URL(emulator.url).port);

    const relayed = await open(address, { origin: server.url });
    expect(relayed.status).toBe(101);
    for (let i = 0; i < 3; i++) relayed.ws!.send(pcm);
    await waitFor(async () =>
      (await (await fetch(`${emulator.url}/__emulator/sessions/${real}`)).json()).websocket?.frames === 3 ? true : undefined,
    );

    expect((await open(address, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await open(address.replace(/ticket=[^&]+/, 'ticket=forged'))).status).toBe(403);
    const closed = new Promise<number>((r) => relayed.ws!.once('close', (code) => r(code)));
    const end = await fetch(`${server.url}/api/avatar/sessions/${s.session_id}/end`, { method: 'POST', headers: bearer(s.client_token) });
    expect(end.status).toBe(200);
    expect(await closed).toBe(1000);
    const late = await open(address);
    expect(late.status).toBe(409);
  });

  it('Fetch handler: WebSocket transports are refused with 400 before the service is called (it cannot relay)', async () => {
    const proxy = await adapters.fetch!({});
    const calls = counter.calls;
    const r = await proxy.call('POST', '/sessions', { agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/cannot relay WebSockets/);
    expect(counter.calls).toBe(calls);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { createProxyClient } from '../../../src/core';
import { blobToText } from '../../../src/core/image/blob';
import { createFakeProxy } from '../../../src/testing';

const respond = (status: number, body: unknown, raw = false) =>
  vi.fn(
    async () => new Response(raw ? (body as string) : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('createProxyClient', () => {
  it('creates a room and parses the client session; trailing slashes in proxyUrl are fine', async () => {
    const proxy = createFakeProxy();
    const c = createProxyClient({ proxyUrl: 'http://app.test/api/avatar/', fetch: proxy.fetch });
    const s = await c.createRoom('agent-1');
    expect(s).toMatchObject({ session_id: 'sess_1', client_token: 'ct_1', transport: 'rtc-b' });
    expect(proxy.calls[0]).toMatchObject({ method: 'POST', path: '/api/avatar/rooms', body: { agent_id: 'agent-1' } });
    expect(proxy.calls[0]!.headers['content-type']).toBe('application/json');
  });

  it('maps {detail} errors with their status to LiveAiError codes', async () => {
    const cases: [number, string][] = [
      [400, 'invalid_request'],
      [401, 'invalid_api_key'],
      [402, 'insufficient_funds'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [413, 'payload_too_large'],
      [429, 'rate_limited'],
      [502, 'upstream_error'],
      [504, 'timeout'],
    ];
    for (const [status, code] of cases) {
      const c = createProxyClient({ proxyUrl: 'http://p', fetch: respond(status, { detail: `d${status}` }) });
      await expect(c.getSession('s', 't')).rejects.toMatchObject({ code, status, detail: `d${status}` });
    }
  });

  it('a non-JSON error body keeps its text as detail', async () => {
    const c = createProxyClient({ proxyUrl: 'http://p', fetch: respond(500, 'Bad gateway here', true) });
    await expect(c.getSession('s', 't')).rejects.toMatchObject({ code: 'upstream_error', detail: 'Bad gateway here' });
  });

  it('an unexpected 200 body is upstream_error (zod at the boundary)', async () => {
    const c = createProxyClient({ proxyUrl: 'http://p', fetch: respond(200, { session_status: 'DANCING' }) });
    await expect(c.getSession('s', 't')).rejects.toMatchObject({
      code: 'upstream_error',
      detail: expect.stringMatching(/unexpected response/),
    });
  });

  it('a fetch that never answers is a timeout; a network failure is upstream_error; a caller abort is aborted', async () => {
    const hang = vi.fn(
      (_u: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_r, reject) => {
          init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        }),
    );
    await expect(createProxyClient({ proxyUrl: 'http://p', fetch: hang, timeoutMs: 20 }).getSession('s', 't')).rejects.toMatchObject({
      code: 'timeout',
    });
    const down = vi.fn(async () => Promise.reject(new TypeError('fetch failed')));
    await expect(createProxyClient({ proxyUrl: 'http://p', fetch: down }).getSession('s', 't')).rejects.toMatchObject({
      code: 'upstream_error',
      retryable: true,
    });
    const ac = new AbortController();
    const p = createProxyClient({ proxyUrl: 'http://p', fetch: hang }).getSession('s', 't', { signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'aborted' });
  });

  it('session calls send the Bearer client token; list calls send page and limit and extra headers', async () => {
    const proxy = createFakeProxy();
    const c = createProxyClient({ proxyUrl: 'http://p', fetch: proxy.fetch, headers: { 'x-admin': 'yes' } });
    const s = await c.createRoom('a');
    await c.getSession(s.session_id, s.client_token);
    await c.control(s.session_id, s.client_token, { event: 'action', action: 'wave' });
    await c.end(s.session_id, s.client_token);
    expect(proxy.calls.slice(1).map((x) => x.headers.authorization)).toEqual(['Bearer ct_1', 'Bearer ct_1', 'Bearer ct_1']);
    const list = await c.listRooms({ page: 1, limit: 10 });
    expect(list.rooms).toHaveLength(1);
    expect(list.rooms[0]).toMatchObject({ session_id: 'sess_1', session_status: 'COMPLETED', credits_used: 1.25 });
    expect(proxy.calls.at(-1)).toMatchObject({ path: '/rooms' });
    expect(proxy.calls.at(-1)!.headers['x-admin']).toBe('yes');
    await expect(c.listSessions({ page: 200, limit: 10 })).rejects.toMatchObject({
      code: 'invalid_request',
      detail: expect.stringMatching(/1000/),
    });
    await expect(c.getSession(s.session_id, 'ct_other')).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('endBeacon uses navigator.sendBeacon with {client_token} as text/plain, else a keepalive fetch', async () => {
    const beacon = vi.fn((_u: string, _b?: BodyInit | null) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    const f = vi.fn(async () => new Response('{}'));
    const c = createProxyClient({ proxyUrl: 'http://p/api', fetch: f });
    expect(c.endBeacon('s 1', 'tok')).toBe(true);
    expect(beacon.mock.calls[0]![0]).toBe('http://p/api/sessions/s%201/end');
    expect(await blobToText(beacon.mock.calls[0]![1] as Blob)).toBe('{"client_token":"tok"}');
    Reflect.deleteProperty(navigator, 'sendBeacon');
    expect(c.endBeacon('s', 'tok')).toBe(true);
    expect(f).toHaveBeenCalledWith(
      'http://p/api/sessions/s/end',
      expect.objectContaining({ keepalive: true, body: '{"client_token":"tok"}' }),
    );
  });

  it('the fake proxy accepts the beacon body form of /end (token in the body)', async () => {
    const proxy = createFakeProxy();
    const c = createProxyClient({ proxyUrl: 'http://p', fetch: proxy.fetch });
    const s = await c.createRoom('a');
    const res = await proxy.fetch('http://p/sessions/sess_1/end', {
      method: 'POST',
      body: JSON.stringify({ client_token: s.client_token }),
    });
    expect(res.status).toBe(200);
    expect(proxy.sessions.get('sess_1')!.status).toBe('COMPLETED');
  });
});

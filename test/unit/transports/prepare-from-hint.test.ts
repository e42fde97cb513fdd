import { describe, expect, it } from 'vitest';
import { createAvatarHandler, type AvatarHandlerOptions } from '../../../src/server/index';
import { createAvatarSession, createTransportRegistry, type TransportModule } from '../../../src/core';
import type { MediaTransport } from '../../../src/core/schemas';
import { proxyRoomHint } from '../../../src/core/transports/choose';
import { quietLogger } from '../../setup/quiet-logger';

/**
 * A session's `prefetch()` warms the connection to the LiveKit server its call will join, when that server is known
 * before the click: the proxy's `GET /transport` (`server_url`) for a hosted room, the attached session's `room_url`.
 * The proxy is the real Fetch handler, called in-process as the page's `fetch`; the transports are stand-ins that
 * record what was loaded and prepared. A hint that is wrong in any way is ignored without an error.
 */
const SECRET = 'prepare-test-session-secret-0123456789-abcdef';
let n = 0;

/** A real proxy (at a fresh URL, since a page asks each proxy once) and the requests it got. */
function proxy(extra: Partial<AvatarHandlerOptions> = {}, answer?: () => Response) {
  const base = `/api/p${++n}`;
  const handler = createAvatarHandler({
    basePath: base,
    upstream: { baseUrl: 'http://service.invalid', apiKey: 'k' },
    sessionSecret: SECRET,
    logger: quietLogger(),
    ...extra,
  });
  const paths: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(new URL(String(input), 'http://app.test'), init);
    paths.push(`${req.method} ${new URL(req.url).pathname}`);
    return answer ? answer() : handler(req, { remoteAddress: '127.0.0.1' });
  }) as typeof globalThis.fetch;
  return { url: `http://app.test${base}`, fetch, paths };
}

/** A registry of stand-in transports; `prepared` lists what was warmed, `loads` what was downloaded. */
function transports(...kinds: MediaTransport[]) {
  const prepared: string[] = [];
  const loads: MediaTransport[] = [];
  let settle: () => void = () => {};
  const done = new Promise<void>((r) => (settle = r));
  const modules = kinds.map((kind): TransportModule => ({
    kind,
    load: async () => (loads.push(kind), settle(), () => ({ kind }) as never),
    prepare: (url) => void prepared.push(`${kind} ${url}`),
  }));
  return { registry: createTransportRegistry({ transports: modules }), prepared, loads, done };
}

/**
 * Waits until the session's prefetch has handled the proxy's answer: the page asks each proxy once, so this is the
 * same promise, and the prefetch's handler was attached to it first.
 */
const settled = async (p: { url: string; fetch: typeof fetch; paths: string[] }) => {
  if (p.paths.length) await proxyRoomHint(p.url, p.fetch);
  return p.paths;
};

describe('prefetch() warms the LiveKit server known before the click', () => {
  it('a hosted room: the proxy’s server_url, once however often prefetch() is called', async () => {
    const p = proxy({ roomServerUrl: 'wss://lk.example.test' });
    const t = transports('rtc-a');
    const session = createAvatarSession({ proxyUrl: p.url, fetch: p.fetch, flow: { kind: 'room', agentId: 'a' }, transports: t.registry });
    session.prefetch();
    session.prefetch(); // hover, then focus
    expect(await settled(p)).toEqual([`GET ${new URL(p.url).pathname}/transport`]);
    expect(t.prepared).toEqual(['rtc-a wss://lk.example.test']);
    expect(t.loads).toEqual(['rtc-a']);
    expect(session.store.getState().phase).toBe('idle');
    session.dispose();
  });

  it('with both transports registered: the proxy picks LiveKit and names its server', async () => {
    const p = proxy({ roomServerUrl: 'wss://lk.example.test' });
    const t = transports('rtc-a', 'rtc-b');
    createAvatarSession({ proxyUrl: p.url, fetch: p.fetch, flow: { kind: 'room', agentId: 'a' }, transports: t.registry }).prefetch();
    await t.done;
    await settled(p);
    expect(t.loads).toEqual(['rtc-a']);
    expect(t.prepared).toEqual(['rtc-a wss://lk.example.test']);
  });

  it('an attached session: the server of its own room_url, and the proxy is not asked', async () => {
    const p = proxy({ roomServerUrl: 'wss://lk.example.test' });
    const t = transports('rtc-a');
    const flow = {
      kind: 'attach',
      session: { session_id: 'h', client_token: 'c', transport: 'rtc-a', room_url: 'wss://agent-lk.example.test/?room=r1', token: 't' },
    };
    createAvatarSession({ proxyUrl: p.url, fetch: p.fetch, flow: flow as never, transports: t.registry }).prefetch();
    expect(await settled(p)).toEqual([]);
    expect(t.prepared).toEqual(['rtc-a wss://agent-lk.example.test']);
  });

  it('nothing for Daily rooms, a forced Daily transport, or a proxy that does not know the server', async () => {
    const daily = proxy({ roomTransport: 'rtc-b' });
    const bothDaily = transports('rtc-a', 'rtc-b');
    createAvatarSession({
      proxyUrl: daily.url,
      fetch: daily.fetch,
      flow: { kind: 'room', agentId: 'a' },
      transports: bothDaily.registry,
    }).prefetch();
    await bothDaily.done;
    expect(bothDaily.loads).toEqual(['rtc-b']);

    const forced = proxy({ roomServerUrl: 'wss://lk.example.test' });
    const t2 = transports('rtc-a', 'rtc-b');
    createAvatarSession({
      proxyUrl: forced.url,
      fetch: forced.fetch,
      transport: 'rtc-b',
      flow: { kind: 'room', agentId: 'a' },
      transports: t2.registry,
    }).prefetch();
    expect(await settled(forced)).toEqual([]); // a Daily call has no LiveKit server to warm: nothing asked

    const unknown = proxy({ roomTransport: 'rtc-a' });
    const t3 = transports('rtc-a');
    createAvatarSession({
      proxyUrl: unknown.url,
      fetch: unknown.fetch,
      flow: { kind: 'room', agentId: 'a' },
      transports: t3.registry,
    }).prefetch();
    await settled(unknown);
    expect([...bothDaily.prepared, ...t2.prepared, ...t3.prepared]).toEqual([]);
    expect(t3.loads).toEqual(['rtc-a']);
  });

  it.each([
    ['an http URL', { transport: 'rtc-a', server_url: 'https://lk.example.test' }],
    ['a query', { transport: 'rtc-a', server_url: 'wss://lk.example.test/?room=r1' }],
    ['a user name', { transport: 'rtc-a', server_url: 'wss://u:p@lk.example.test' }],
    ['a URL for Daily rooms', { transport: 'rtc-b', server_url: 'wss://lk.example.test' }],
    ['not a string', { transport: 'rtc-a', server_url: 42 }],
    ['not a URL', { transport: 'rtc-a', server_url: 'wss://' }],
    ['a list', ['wss://lk.example.test']],
  ])('ignores a bad hint (%s): no warm-up, no error, the transport still loads', async (_, body) => {
    const p = proxy({}, () => Response.json(body));
    const t = transports('rtc-a');
    const session = createAvatarSession({ proxyUrl: p.url, fetch: p.fetch, flow: { kind: 'room', agentId: 'a' }, transports: t.registry });
    const errors: unknown[] = [];
    session.onError((e) => errors.push(e));
    session.prefetch();
    await settled(p);
    expect(p.paths).toHaveLength(1);
    expect(t.prepared).toEqual([]);
    expect(t.loads).toEqual(['rtc-a']);
    expect(errors).toEqual([]);
    expect(session.store.getState().error).toBeNull();
  });

  it('ignores a hint that is not JSON or an error answer', async () => {
    for (const answer of [() => new Response('<html>', { status: 200 }), () => Response.json({ detail: 'Not found' }, { status: 404 })]) {
      const p = proxy({}, answer);
      const t = transports('rtc-a');
      createAvatarSession({ proxyUrl: p.url, fetch: p.fetch, flow: { kind: 'room', agentId: 'a' }, transports: t.registry }).prefetch();
      await settled(p);
      expect(t.prepared).toEqual([]);
      expect(t.loads).toEqual(['rtc-a']);
    }
  });
});

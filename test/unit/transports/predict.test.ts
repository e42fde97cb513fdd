import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAvatarHandler } from '../../../src/server/index';
import type { MediaTransport } from '../../../src/core/schemas';
import { quietLogger } from '../../setup/quiet-logger';

/**
 * Which transport a hosted room will need, known before the create call answers so its SDK downloads early:
 * explicit option → the only registered transport → the proxy's `GET /transport` → the last session's.
 * The proxy is the real Fetch handler, called in-process as the page's `fetch`.
 */
afterEach(() => {
  localStorage.removeItem('liveai-kit.transport');
  vi.resetModules();
});

const SECRET = 'predict-test-session-secret-0123456789-abcdef';
const PROXY = 'http://app.test/api/avatar';

/** A real proxy advertising `roomTransport` (or nothing), with the requests it got. */
function proxy(roomTransport?: MediaTransport, opts: { old?: boolean } = {}) {
  const handler = createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: 'http://service.invalid', apiKey: 'k' },
    sessionSecret: SECRET,
    roomTransport,
    logger: quietLogger(),
  });
  const paths: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(new URL(String(input), 'http://app.test'), init);
    paths.push(`${req.method} ${new URL(req.url).pathname}`);
    // An older proxy without the route: 404 {detail}.
    if (opts.old) return new Response(JSON.stringify({ detail: 'Not found' }), { status: 404 });
    return handler(req, { remoteAddress: '127.0.0.1' });
  }) as typeof globalThis.fetch;
  return { fetch, paths };
}

/** Registers fake transport modules; `loads` lists the kinds whose adapter (and SDK) were downloaded. */
async function register(...kinds: MediaTransport[]) {
  const load = await import('../../../src/core/transports/choose');
  const loads: MediaTransport[] = [];
  let loaded: (k: MediaTransport) => void = () => {};
  const next = () => new Promise<MediaTransport>((resolve) => (loaded = resolve));
  load.registerTransport(
    ...kinds.map((kind) => ({
      kind,
      load: async () => {
        loads.push(kind);
        loaded(kind);
        return () => ({ kind }) as never;
      },
    })),
  );
  const { predictRoomTransport } = await import('../../../src/core/transports/choose');
  const { createAvatarSession } = await import('../../../src/core');
  return { loads, next, predictRoomTransport, createAvatarSession };
}

describe('predicting the transport of a hosted room', () => {
  it('an explicit option wins, and nothing is asked', async () => {
    const { predictRoomTransport } = await register('rtc-a', 'rtc-b');
    const p = proxy('rtc-a');
    expect(await predictRoomTransport({ transport: 'rtc-b', proxyUrl: PROXY, fetch: p.fetch })).toBe('rtc-b');
    expect(p.paths).toEqual([]);
  });

  it('the only registered transport, without asking the proxy', async () => {
    const { predictRoomTransport } = await register('rtc-b');
    const p = proxy('rtc-a');
    expect(await predictRoomTransport({ proxyUrl: PROXY, fetch: p.fetch })).toBe('rtc-b');
    expect(p.paths).toEqual([]);
  });

  it('with both registered, the proxy’s word beats the last session, and it is asked once per proxy for the page', async () => {
    const { predictRoomTransport } = await register('rtc-a', 'rtc-b');
    localStorage.setItem('liveai-kit.transport', 'rtc-b');
    const p = proxy('rtc-a');
    expect(await predictRoomTransport({ proxyUrl: PROXY, fetch: p.fetch })).toBe('rtc-a');
    expect(await predictRoomTransport({ proxyUrl: `${PROXY}/`, fetch: p.fetch })).toBe('rtc-a');
    expect(p.paths).toEqual(['GET /api/avatar/transport']);
  });

  it('falls back to the last session when the proxy does not know or has no such route; else nothing', async () => {
    const { predictRoomTransport } = await register('rtc-a', 'rtc-b');
    expect(await predictRoomTransport({ proxyUrl: PROXY, fetch: proxy().fetch })).toBeNull();
    localStorage.setItem('liveai-kit.transport', 'rtc-b');
    expect(await predictRoomTransport({ proxyUrl: PROXY, fetch: proxy().fetch })).toBe('rtc-b'); // cached null
    expect(await predictRoomTransport({ proxyUrl: '/older', fetch: proxy('rtc-a', { old: true }).fetch })).toBe('rtc-b');
  });

  it('a session’s prefetch() downloads the proxy’s transport and never the other one', async () => {
    const { loads, next, createAvatarSession } = await register('rtc-a', 'rtc-b');
    const p = proxy('rtc-b');
    const session = createAvatarSession({ proxyUrl: PROXY, fetch: p.fetch, flow: { kind: 'room', agentId: 'a' } });
    const loaded = next();
    session.prefetch();
    session.prefetch(); // hover, then focus
    expect(await loaded).toBe('rtc-b');
    expect(loads).toEqual(['rtc-b']);
    expect(p.paths).toEqual(['GET /api/avatar/transport']);
    expect(session.store.getState().phase).toBe('idle');
    session.dispose();
  });
});

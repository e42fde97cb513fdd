import { afterEach, describe, expect, it, vi } from 'vitest';
import { WindowStore, createLimiter } from '../../src/server/adapters/fetch/limiter';
import { createAvatarHandler } from '../../src/server/index';
import { ALICE, SECRET } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The in-memory rate counter (the Fetch handler's default, and every limit without a store) costs O(1) per
 * request whatever the number of live keys (issue 24 item 9: past 10 000 keys it scanned the whole map on every
 * request). Checked structurally: no Map is iterated while counting.
 */
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Counts iterations of any Map (for…of, entries, keys, values, forEach) while `run` runs. */
async function mapIterations(run: () => unknown): Promise<number> {
  let n = 0;
  const originals: [PropertyKey, unknown][] = [];
  for (const m of ['entries', 'keys', 'values', 'forEach', Symbol.iterator] as const) {
    const original = (Map.prototype as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[m]!;
    originals.push([m, original]);
    Object.defineProperty(Map.prototype, m, {
      configurable: true,
      writable: true,
      value: function (this: Map<unknown, unknown>, ...a: unknown[]) {
        n += 1;
        return original.apply(this, a);
      },
    });
  }
  try {
    await run();
  } finally {
    for (let i = 0; i < originals.length; i++) {
      const [m, original] = originals[i]!;
      Object.defineProperty(Map.prototype, m, { configurable: true, writable: true, value: original });
    }
  }
  return n;
}

describe('WindowStore', () => {
  it('counts per key in fixed windows; a counter expires with its window, also after long quiet spells', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = new WindowStore();
    store.init({ windowMs: 60_000 } as never);
    expect(store.increment('a').totalHits).toBe(1);
    vi.advanceTimersByTime(59_000);
    expect(store.increment('a').totalHits).toBe(2);
    vi.advanceTimersByTime(1_000);
    expect(store.increment('a').totalHits).toBe(1);
    vi.advanceTimersByTime(50_000);
    expect(store.increment('a').totalHits).toBe(2);
    expect(store.increment('b').totalHits).toBe(1);
    vi.advanceTimersByTime(10 * 60_000);
    expect(store.increment('a').totalHits).toBe(1);
    store.decrement('a');
    expect(store.increment('a').totalHits).toBe(1);
  });

  it('no Map is scanned while counting, with 30 000 live keys', async () => {
    const store = new WindowStore();
    store.init({ windowMs: 60_000 } as never);
    for (let i = 0; i < 30_000; i++) store.increment(`ip:${i}`);
    expect(await mapIterations(() => store.increment('ip:new'))).toBe(0);
    expect(await mapIterations(() => store.increment('ip:17'))).toBe(0);
    const limiter = createLimiter(store, 60_000, 2);
    expect(await mapIterations(() => limiter.hit('ip:29999'))).toBe(0);
  });

  it("the Fetch handler's request costs the same with 10 500 live client keys (past the old scan threshold) as with 10", async () => {
    const handler = createAvatarHandler({
      basePath: '/api',
      upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: ALICE },
      sessionSecret: SECRET,
      rateLimit: { perIp: 5 },
      sessionLimits: false,
      logger: quietLogger(),
    });
    const rooms = (ip: string) =>
      handler(
        new Request('https://proxy.example/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' }),
        {
          remoteAddress: ip,
        },
      );
    for (let i = 0; i < 10; i++) await rooms(`10.0.0.${i}`);
    const few = await mapIterations(() => rooms('192.0.2.1'));
    for (let i = 0; i < 10_500; i++) await rooms(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    const many = await mapIterations(() => rooms('192.0.2.2'));
    expect(many).toBe(few);
  });
});

import type { Store, IncrementResponse, Options } from 'express-rate-limit';

type Hit = { count: number; resetAt: number };

/**
 * Fixed-window in-memory counter with the express-rate-limit `Store` shape, for the Fetch handler when no store is
 * given. Every call costs O(1) whatever the number of keys: counters live in two generations of maps (as in
 * express-rate-limit's own MemoryStore); once per window the older generation is dropped whole and the newer
 * becomes the older, so a counter is kept at most two windows, never scanned.
 * Why not express-rate-limit's `MemoryStore` (which the Express router uses): that package declares `express` as a
 * required peer, so making it a dependency of the Fetch handler would make npm install Express into Next.js, Bun
 * or Deno apps that never use it. Any express-rate-limit `Store` can still be given as `rateLimit.store`.
 */
export class WindowStore implements Store {
  private windowMs = 60_000;
  private current = new Map<string, Hit>();
  private previous = new Map<string, Hit>();
  private rotateAt = 0;
  init(options: Options): void {
    this.windowMs = options.windowMs;
  }
  increment(key: string): IncrementResponse {
    const now = Date.now();
    let entry = this.live(key, now);
    if (!entry) {
      entry = { count: 0, resetAt: now + this.windowMs };
      this.current.set(key, entry);
    }
    entry.count += 1;
    return { totalHits: entry.count, resetTime: new Date(entry.resetAt) };
  }
  decrement(key: string): void {
    const entry = this.live(key, Date.now());
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }
  resetKey(key: string): void {
    this.current.delete(key);
    this.previous.delete(key);
  }
  /** The key's unexpired counter, moved into the current generation; undefined when none. */
  private live(key: string, now: number): Hit | undefined {
    this.rotate(now);
    let entry = this.current.get(key);
    if (!entry) {
      entry = this.previous.get(key);
      if (entry) {
        this.previous.delete(key);
        this.current.set(key, entry);
      }
    }
    return entry && entry.resetAt > now ? entry : undefined;
  }
  /** A counter made in the current generation expires before the generation after next is made: dropping is safe. */
  private rotate(now: number): void {
    if (now < this.rotateAt) return;
    this.previous = now < this.rotateAt + this.windowMs ? this.current : new Map();
    this.current = new Map();
    this.rotateAt = now + this.windowMs;
  }
}

/** A limiter over any express-rate-limit `Store`: `hit(key)` → seconds to wait when over `limit`, else 0. */
export function createLimiter(store: Store, windowMs: number, limit: number) {
  // A store that cannot start now (Redis down) fails its calls later (503); it must not crash the process.
  void Promise.resolve(store.init?.({ windowMs } as Options)).catch(() => {});
  return {
    async hit(key: string): Promise<number> {
      const { totalHits, resetTime } = await store.increment(key);
      if (totalHits <= limit) return 0;
      return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
    },
  };
}

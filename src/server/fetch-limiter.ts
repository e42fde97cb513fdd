import type { Store, IncrementResponse, Options } from 'express-rate-limit';

/** Fixed-window in-memory counter with the express-rate-limit `Store` shape (used when no store is given). */
export class WindowStore implements Store {
  private windowMs = 60_000;
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  init(options: Options): void {
    this.windowMs = options.windowMs;
  }
  increment(key: string): IncrementResponse {
    const now = Date.now();
    if (this.hits.size > 10_000) for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    return { totalHits: entry.count, resetTime: new Date(entry.resetAt) };
  }
  decrement(key: string): void {
    const entry = this.hits.get(key);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }
  resetKey(key: string): void {
    this.hits.delete(key);
  }
}

/** A limiter over any express-rate-limit `Store`: `hit(key)` → seconds to wait when over `limit`, else 0. */
export function createLimiter(store: Store, windowMs: number, limit: number) {
  void store.init?.({ windowMs } as Options);
  return {
    async hit(key: string): Promise<number> {
      const { totalHits, resetTime } = await store.increment(key);
      if (totalHits <= limit) return 0;
      return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
    },
  };
}

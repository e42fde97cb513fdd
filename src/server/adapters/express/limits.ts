import type { Request, RequestHandler, Response } from 'express';
import type * as RateLimitNs from 'express-rate-limit';
import type { ProxyCore } from '../../proxy/core';
import { loadPeer } from '../../peers';
import { createLimiter } from '../fetch/limiter';
import type { FailureLimiter } from '../../proxy/token-gate';

/**
 * The per-client express-rate-limit middleware of the create and admin routes (the client address comes from
 * `trustProxy`), 429 `{detail}` with `Retry-After` and `RateLimit` headers (draft-7), and the per-client count of
 * requests with an invalid client token (the token gate's). The per-session limit runs in the core, after the
 * token check. Pass-through (and no count) when `rateLimit: false`.
 */
export function limiters(
  core: ProxyCore<Request>,
  clientOf: (req: Request) => Promise<string>,
): { perIp: RequestHandler; invalidTokens?: FailureLimiter } {
  const limits = core.options.limits;
  const pass: RequestHandler = (_req, _res, next) => next();
  if (limits === false) return { perIp: pass };
  const mod = loadPeer<typeof RateLimitNs & { default?: typeof RateLimitNs.rateLimit }>('express-rate-limit', 'createAvatarProxy');
  const rateLimit = mod.rateLimit ?? mod.default;
  // A store the user gives is meant to be shared (by both limits, or by several proxy instances).
  const shared = limits.store !== undefined || core.options.store !== undefined;
  const storeFor = (kind: 'ip' | 'session') =>
    limits.store === undefined
      ? core.options.store?.limitStore(kind)
      : typeof limits.store === 'function'
        ? limits.store(kind)
        : limits.store;
  const common = (kind: 'ip' | 'session', limit: number) => {
    const store = storeFor(kind);
    return {
      windowMs: limits.windowMs,
      limit,
      standardHeaders: 'draft-7' as const,
      legacyHeaders: false,
      ...(store ? { store } : {}),
      validate: { unsharedStore: !shared, xForwardedForHeader: false },
      handler: (_req: Request, res: Response) => {
        const retry = res.getHeader('retry-after');
        res.status(429).json({ detail: `Too many requests; try again${retry ? ` in ${retry} s` : ' later'}` });
      },
    };
  };
  // Requests with an invalid client token, per client: counted by the token gate, before any body is read. Its keys
  // (`token:<client>`) differ from the request limit's, so it may share that limit's store.
  const invalidTokens = createLimiter(storeFor('ip') ?? new mod.MemoryStore(), limits.windowMs, limits.invalidTokens);
  // The client's key (see the clientKey, trustProxy and ipv6Subnet options); a client it cannot tell apart is refused.
  return {
    perIp: rateLimit({ ...common('ip', limits.perIp), keyGenerator: async (req: Request) => `ip:${await clientOf(req)}` }),
    invalidTokens,
  };
}

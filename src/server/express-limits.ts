import type { Request, RequestHandler, Response } from 'express';
import type * as RateLimitNs from 'express-rate-limit';
import type { ProxyCore } from './core';
import { loadPeer } from './peers';

/**
 * The two express-rate-limit middlewares of the router: per client IP (create and admin routes) and per
 * session id (session routes), 429 `{detail}` with `Retry-After` and `RateLimit` headers (draft-7).
 * Pass-through when `rateLimit: false`.
 */
export function limiters(core: ProxyCore<Request>): { perIp: RequestHandler; perSession: RequestHandler } {
  const limits = core.options.limits;
  const pass: RequestHandler = (_req, _res, next) => next();
  if (limits === false) return { perIp: pass, perSession: pass };
  const mod = loadPeer<typeof RateLimitNs & { default?: typeof RateLimitNs.rateLimit }>('express-rate-limit', 'createAvatarProxy');
  const rateLimit = mod.rateLimit ?? mod.default;
  // A store the user gives is meant to be shared (by both limits, or by several proxy instances).
  const shared = limits.store !== undefined;
  const storeFor = (kind: 'ip' | 'session') =>
    limits.store === undefined ? undefined : typeof limits.store === 'function' ? limits.store(kind) : limits.store;
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
  return {
    perIp: rateLimit(common('ip', limits.perIp)),
    perSession: rateLimit({ ...common('session', limits.perSession), keyGenerator: (req: Request) => `session:${String(req.params.id)}` }),
  };
}

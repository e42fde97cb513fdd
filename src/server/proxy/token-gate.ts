import { LiveAiError } from '../../core/index';
import { bearerToken } from '../session/client-token';
import { RateLimited } from '../limits/guard';
import type { ProxyAction } from '../options';

/** The session routes: they carry a client token, checked before their body is read. */
const SESSION_ACTIONS: ReadonlySet<ProxyAction> = new Set(['getSession', 'control', 'leaveMeeting', 'end', 'renewToken']);

/** Counts a client's requests with a missing or invalid token: `hit(key)` → seconds to wait when over, else 0. */
export interface FailureLimiter {
  hit(key: string): Promise<number>;
}

/** What the gate needs of a request: its route, `:id`, `Authorization` header and its client's key (asked on a refusal). */
export interface GateCall {
  action: ProxyAction;
  sessionId?: string;
  authorization?: string | null;
  client?: () => Promise<string | undefined>;
}

/**
 * The check the adapters run on a session route before they read its body: the client token in the
 * `Authorization` header must be valid and bound to the `:id` (401/403; `verify` is the route's own check), so
 * a request without one never has its body buffered. `/end` without the header is let through: its token is in
 * its (small) body. Each refused request counts against its client's invalid-token limit
 * (`rateLimit.invalidTokens` per window); past it, the client's refused requests answer 429 with `Retry-After`
 * instead. Valid tokens are never counted there; a request with a valid token counts against its session's request
 * limit (`sessionHit`, `rateLimit.perSession`) here, so one over that limit is refused too before its body is read
 * (never `/end`).
 * The session route itself checks the token again (a cache hit), so nothing is skipped when a gate is not run.
 * @returns true when it counted the request against its session's limit (the route then does not count it again).
 * @throws LiveAiError 400 (session id), 401 `invalid_api_key`, 403 `forbidden`, 429 `rate_limited`.
 */
export function createTokenGate(
  verify: (token: string | undefined, handle: string) => Promise<unknown>,
  limiter: FailureLimiter | undefined,
  sessionHit?: (handle: string) => Promise<void>,
): (call: GateCall) => Promise<boolean> {
  return async (call) => {
    if (!SESSION_ACTIONS.has(call.action)) return false;
    const id = call.sessionId;
    if (!id || id.length > 256 || /[\u0000-\u001f\u007f]/.test(id)) {
      throw new LiveAiError('invalid_request', 'Invalid session id', { status: 400 });
    }
    try {
      const token = bearerToken(call.authorization);
      if (token === undefined && call.action === 'end') return false;
      await verify(token, id);
    } catch (e) {
      const client = limiter && (await call.client?.().catch(() => undefined));
      if (limiter && client !== undefined) {
        const wait = await limiter.hit(`token:${client}`);
        if (wait > 0) throw new RateLimited(`Too many requests with an invalid client token; try again in ${wait} s`, wait);
      }
      throw e;
    }
    if (call.action === 'end' || !sessionHit) return false;
    await sessionHit(id);
    return true;
  };
}

/** True for a session route (the ones {@link createTokenGate} checks). */
export const isSessionAction = (action: ProxyAction): boolean => SESSION_ACTIONS.has(action);

import { LiveAiError } from '../../core/index';
import { createClientTokens } from './client-token';
import { createSealer } from './handle';
import { DEFAULT_SESSION_LIMITS } from '../options';

/**
 * Options of {@link issueClientToken}: the same `sessionSecret` (and `tokenTtlSeconds`) as your proxy's.
 * @public
 */
export interface ClientTokenOptions {
  /** The proxy's `sessionSecret` (≥ 32 bytes). A secret: keep it on your server. */
  sessionSecret: string | Uint8Array;
  /** Lifetime in seconds (default 900; 60 s to 1 day). The browser renews it through the proxy. */
  tokenTtlSeconds?: number;
  /**
   * Longest life of the attached session from this call, in ms (default 1800000 = 30 min, the proxy's default
   * `sessionLimits.maxDurationMs`). Sealed into the handle: the proxy ends the session at this deadline or at
   * its own `maxDurationMs` from this call, whichever comes first, and no client token outlives it.
   */
  maxDurationMs?: number;
}

/**
 * A handle and client token for a session your server (or a LiveKit agent with an avatar plugin) created, so a
 * browser can attach to it through your proxy: hand the browser `{...issued, transport: 'rtc-a', room_url, token}`
 * (its own LiveKit token for the room) and use the flow `{ kind: 'attach', session }`. `issued.session_id` is an
 * opaque handle, not the service's session id: the service's id, like your API key, must stay on your server
 * (the service's control endpoint would accept it from anyone).
 *
 * The proxy treats an attached session like one it created: on the browser's first call it counts against that
 * browser's running-session cap (`sessionLimits.maxConcurrent`, 429 when full), and it is ended by the proxy
 * (control `terminate`) once `maxDurationMs` (or the proxy's `sessionLimits.maxDurationMs`, when shorter) have
 * passed since this call; past that, every call but a status read is refused with 403 `{detail}`, whatever the
 * proxy's store remembers. Calling again for the same session starts a new handle, and a new maximum length.
 * @returns `{session_id, client_token, expires_at}` (`expires_at` ISO 8601, UTC, of the token).
 * @throws LiveAiError `invalid_request` for a secret under 32 bytes, a TTL or `maxDurationMs` out of range, or an
 *   empty `sessionId`.
 * @public
 */
export async function issueClientToken(
  options: ClientTokenOptions,
  sessionId: string,
): Promise<{ session_id: string; client_token: string; expires_at: string }> {
  const secret = typeof options?.sessionSecret === 'string' ? new TextEncoder().encode(options.sessionSecret) : options?.sessionSecret;
  if (!(secret instanceof Uint8Array) || secret.length < 32)
    throw new LiveAiError('invalid_request', 'sessionSecret must be at least 32 bytes');
  const ttl = options.tokenTtlSeconds ?? 900;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 24 * 3600)
    throw new LiveAiError('invalid_request', 'tokenTtlSeconds must be an integer from 60 to 86400');
  if (typeof sessionId !== 'string' || sessionId.length === 0)
    throw new LiveAiError('invalid_request', 'sessionId must be a non-empty string');
  const maxMs = options.maxDurationMs ?? DEFAULT_SESSION_LIMITS.maxDurationMs;
  if (!Number.isInteger(maxMs) || maxMs < 1000) throw new LiveAiError('invalid_request', 'maxDurationMs must be an integer ≥ 1000');
  const startedAt = Date.now();
  const endsAt = startedAt + maxMs;
  const handle = await createSealer(secret).handle({ sessionId, startedAt, endsAt });
  return { session_id: handle, ...(await createClientTokens(secret, ttl).issue(handle, true, endsAt)) };
}

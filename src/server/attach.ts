import { LiveAiError } from '../core/errors';
import { createClientTokens } from './client-token';

/** Options of {@link issueClientToken}: the same `sessionSecret` (and `tokenTtlSeconds`) as your proxy's. */
export interface ClientTokenOptions {
  /** The proxy's `sessionSecret` (≥ 32 bytes). A secret: keep it on your server. */
  sessionSecret: string | Uint8Array;
  /** Lifetime in seconds (default 7200; 60 s to 7 days). */
  tokenTtlSeconds?: number;
}

/**
 * A client token for a session your server (or a LiveKit agent with an avatar plugin) created, so a browser can
 * attach to it through your proxy: hand the browser `{session_id, client_token, transport: 'rtc-a', room_url,
 * token}` (its own LiveKit token for the room) and use the flow `{ kind: 'attach', session }`. The proxy accepts
 * it like the tokens it issues itself (status, control, end).
 * @returns `{client_token, expires_at}` (`expires_at` ISO 8601, UTC).
 * @throws LiveAiError `invalid_request` for a secret under 32 bytes, a TTL out of range or an empty `sessionId`.
 */
export async function issueClientToken(
  options: ClientTokenOptions,
  sessionId: string,
): Promise<{ client_token: string; expires_at: string }> {
  const secret = typeof options?.sessionSecret === 'string' ? new TextEncoder().encode(options.sessionSecret) : options?.sessionSecret;
  if (!(secret instanceof Uint8Array) || secret.length < 32)
    throw new LiveAiError('invalid_request', 'sessionSecret must be at least 32 bytes');
  const ttl = options.tokenTtlSeconds ?? 7200;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 7 * 24 * 3600)
    throw new LiveAiError('invalid_request', 'tokenTtlSeconds must be an integer from 60 to 604800');
  if (typeof sessionId !== 'string' || sessionId.length === 0)
    throw new LiveAiError('invalid_request', 'sessionId must be a non-empty string');
  return createClientTokens(secret, ttl).issue(sessionId);
}

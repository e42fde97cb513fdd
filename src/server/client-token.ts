import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { LiveAiError } from '../core/errors';

const ISSUER = 'liveai-kit/server';
const AUDIENCE = 'liveai-kit/browser';
/** Longest token we bother to verify, in characters; real ones are ~200. */
const MAX_TOKEN_CHARS = 4096;

/** Issues and checks the browser's client tokens: HS256 JWTs with `sub` = session_id (architecture §4). */
export interface ClientTokens {
  /** Signs a token for `sessionId`, valid `tokenTtlSeconds`. Returns it and its expiry (ISO 8601, UTC). */
  issue(sessionId: string): Promise<{ client_token: string; expires_at: string }>;
  /**
   * Checks that `token` is ours, unexpired, and bound to `sessionId`.
   * @throws LiveAiError `invalid_api_key` (401) when missing, malformed, tampered or expired;
   *   `forbidden` (403) when valid but issued for another session.
   */
  verify(token: string | undefined, sessionId: string): Promise<void>;
}

/** Creates the client-token signer/verifier for `secret` (≥ 32 bytes) and a lifetime in seconds. */
export function createClientTokens(secret: Uint8Array, ttlSeconds: number): ClientTokens {
  return {
    async issue(sessionId) {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + ttlSeconds;
      const client_token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sessionId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(secret);
      return { client_token, expires_at: new Date(exp * 1000).toISOString() };
    },
    async verify(token, sessionId) {
      if (!token) {
        throw new LiveAiError('invalid_api_key', 'Missing client token: send Authorization: Bearer <client_token>', { status: 401 });
      }
      if (token.length > MAX_TOKEN_CHARS) throw invalid();
      let sub: string | undefined;
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE });
        sub = payload.sub;
      } catch (e) {
        if (e instanceof joseErrors.JWTExpired) {
          throw new LiveAiError('invalid_api_key', 'Client token expired: create a new session', { status: 401 });
        }
        throw invalid();
      }
      if (sub !== sessionId) {
        throw new LiveAiError('forbidden', 'This client token belongs to another session', { status: 403 });
      }
    },
  };
}

const invalid = () => new LiveAiError('invalid_api_key', 'Invalid client token', { status: 401 });

/** Token from an `Authorization: Bearer <token>` header; undefined when absent. @throws 401 for another scheme. */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (header === undefined || header === null || header.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new LiveAiError('invalid_api_key', 'Authorization must be "Bearer <client_token>"', { status: 401 });
  return m[1];
}

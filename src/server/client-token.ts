import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { LiveAiError } from '../core/errors';

const ISSUER = 'liveai-kit/server';
const AUDIENCE = 'liveai-kit/browser';
/** Longest token we bother to verify, in characters; real ones are ~200. */
const MAX_TOKEN_CHARS = 4096;

/** Issues and checks the browser's client tokens: HS256 JWTs with `sub` = session_id. */
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

/** Verified tokens kept in memory (token → {sub, exp in s}); a browser polls with the same token. */
const CACHE_MAX = 10_000;

/**
 * Creates the client-token signer/verifier for `secret` (≥ 32 bytes) and a lifetime in seconds.
 * The HMAC key is imported once (WebCrypto), and tokens already verified are remembered until they expire,
 * so a status poll costs a map lookup instead of an HMAC.
 */
export function createClientTokens(secretBytes: Uint8Array, ttlSeconds: number): ClientTokens {
  let keyPromise: Promise<CryptoKey> | undefined;
  const key = () =>
    (keyPromise ??= crypto.subtle.importKey('raw', secretBytes as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]));
  const verified = new Map<string, { sub: string | undefined; exp: number }>();
  const remember = (token: string, sub: string | undefined, exp: number) => {
    if (verified.size >= CACHE_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { sub, exp });
  };
  /** `sub` of a valid token, from the cache or by verifying it. @throws 401 when invalid or expired. */
  async function subjectOf(token: string): Promise<string | undefined> {
    const known = verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known.sub;
    verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, await key(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'sub'],
      });
      remember(token, payload.sub, payload.exp ?? 0);
      return payload.sub;
    } catch (e) {
      throw e instanceof joseErrors.JWTExpired ? expired() : invalid();
    }
  }
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
        .sign(await key());
      return { client_token, expires_at: new Date(exp * 1000).toISOString() };
    },
    async verify(token, sessionId) {
      if (!token) {
        throw new LiveAiError('invalid_api_key', 'Missing client token: send Authorization: Bearer <client_token>', { status: 401 });
      }
      if (token.length > MAX_TOKEN_CHARS) throw invalid();
      const sub = await subjectOf(token);
      if (sub !== sessionId) {
        throw new LiveAiError('forbidden', 'This client token belongs to another session', { status: 403 });
      }
    },
  };
}

const expired = () =>
  new LiveAiError('invalid_api_key', 'Client token expired: renew it before it expires, or create a new session', { status: 401 });
const invalid = () => new LiveAiError('invalid_api_key', 'Invalid client token', { status: 401 });

/** Token from an `Authorization: Bearer <token>` header; undefined when absent. @throws 401 for another scheme. */
export function bearerToken(header: string | undefined | null): string | undefined {
  if (header === undefined || header === null || header.trim() === '') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new LiveAiError('invalid_api_key', 'Authorization must be "Bearer <client_token>"', { status: 401 });
  return m[1];
}

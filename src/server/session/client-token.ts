import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { LiveAiError } from '../../core/index';

const ISSUER = 'liveai-kit/server';
const AUDIENCE = 'liveai-kit/browser';
/** Longest token we bother to verify, in characters; real ones are ~200. */
const MAX_TOKEN_CHARS = 4096;

/**
 * Issues and checks the browser's client tokens: HS256 JWTs with `sub` = the session's handle (opaque; never the
 * service's session id, which a JWT's readable payload would show). `att: true` marks a token of an attached session
 * (made by `issueClientToken`), which the proxy enters in its ledger on first use.
 */
export interface ClientTokens {
  /**
   * Signs a token for `handle`, valid `tokenTtlSeconds` but never past `notAfter` (the session's deadline, ms since
   * epoch). Returns it and its expiry (ISO 8601, UTC).
   */
  issue(handle: string, attached?: boolean, notAfter?: number): Promise<{ client_token: string; expires_at: string }>;
  /**
   * Checks that `token` is ours, unexpired (at `at`, ms since epoch; default now), and bound to `handle`; tells
   * whether it is an attach token.
   * @throws LiveAiError `invalid_api_key` (401) when missing, malformed, tampered or expired;
   *   `forbidden` (403) when valid but issued for another session.
   */
  verify(token: string | undefined, handle: string, at?: number): Promise<{ attached: boolean }>;
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
  type Claims = { sub: string | undefined; exp: number; attached: boolean };
  const verified = new Map<string, Claims>();
  const remember = (token: string, claims: Claims) => {
    if (verified.size >= CACHE_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
  };
  /** Claims of a valid token, from the cache or by verifying it. @throws 401 when invalid or expired. */
  async function claimsOf(token: string, at: number): Promise<Claims> {
    const known = verified.get(token);
    if (known && known.exp * 1000 > at) return known;
    if (known && known.exp * 1000 <= Date.now()) verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, await key(), {
        currentDate: new Date(at),
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'sub'],
      });
      const claims = { sub: payload.sub, exp: payload.exp ?? 0, attached: payload.att === true };
      remember(token, claims);
      return claims;
    } catch (e) {
      throw e instanceof joseErrors.JWTExpired ? expired() : invalid();
    }
  }
  return {
    async issue(handle, attached = false, notAfter) {
      const now = Math.floor(Date.now() / 1000);
      const exp = Math.min(now + ttlSeconds, notAfter === undefined ? Infinity : Math.floor(notAfter / 1000));
      const client_token = await new SignJWT(attached ? { att: true } : {})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(handle)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(await key());
      return { client_token, expires_at: new Date(exp * 1000).toISOString() };
    },
    async verify(token, handle, at = Date.now()) {
      if (!token) {
        throw new LiveAiError('invalid_api_key', 'Missing client token: send Authorization: Bearer <client_token>', { status: 401 });
      }
      if (token.length > MAX_TOKEN_CHARS) throw invalid();
      const claims = await claimsOf(token, at);
      if (claims.sub !== handle) {
        throw new LiveAiError('forbidden', 'This client token belongs to another session', { status: 403 });
      }
      return { attached: claims.attached };
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

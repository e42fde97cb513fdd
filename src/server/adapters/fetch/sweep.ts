import { LiveAiError } from '../../../core/index';

/** Shortest `sweepSecret` accepted, characters. */
const MIN_SWEEP_SECRET = 16;

const digest = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));

/**
 * The check of the `/sweep` route: resolves when `Authorization` is `Bearer <secret>`; throws 404 when no secret is
 * configured (the route does not exist), 401 otherwise. The comparison takes the same time whatever the guess
 * (both sides hashed, every byte compared).
 * @throws LiveAiError `invalid_request` at creation when the secret is shorter than 16 characters.
 */
export function sweepRoute(secret: string | undefined): (authorization: string | null) => Promise<void> {
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < MIN_SWEEP_SECRET)) {
    throw new LiveAiError(
      'invalid_request',
      `createAvatarHandler: invalid options: sweepSecret: must be a string of at least ${MIN_SWEEP_SECRET} characters`,
    );
  }
  // Hashed on first use: Cloudflare Workers allow no Web Crypto call outside a request.
  let expected: Promise<Uint8Array> | undefined;
  return async (authorization) => {
    if (secret === undefined) throw new LiveAiError('not_found', 'Not found', { status: 404 });
    const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
    const [a, b] = await Promise.all([(expected ??= digest(secret)), digest(given)]);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
    if (diff !== 0 || given === '')
      throw new LiveAiError('invalid_api_key', 'The sweep needs Authorization: Bearer <sweepSecret>', { status: 401 });
  };
}

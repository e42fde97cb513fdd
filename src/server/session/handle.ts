import { CompactEncrypt, compactDecrypt } from 'jose';
import { LiveAiError } from '../../core/index';

/** What a session handle holds: the service's session id and when the proxy started counting its life. */
export interface HandleContents {
  /** The service's session id (never shown to the browser). */
  sessionId: string;
  /** When the session's maximum length starts to count, ms since epoch (its create, or its attach). */
  startedAt: number;
  /**
   * When the session must end, ms since epoch, fixed at its create or attach (a later option change cannot move
   * it later); absent when no maximum length applied then.
   */
  endsAt?: number;
  /**
   * The client key (address or address group) the proxy counted the session under at its create, so a lost or new
   * store can count it there again on the browser's next call. Sealed and encrypted like the rest: the browser can
   * neither read nor change it. Absent in handles made before it existed and in attached sessions' handles.
   */
  client?: string;
}

/** Longest handle or relay ticket we try to open, in characters; real handles are ~170 (~230 with an IPv6 client key). */
const MAX_SEALED_CHARS = 2048;
/** Opened handles kept in memory (a browser polls with the same one). */
const CACHE_MAX = 10_000;

/**
 * Seals and opens the proxy's opaque values: the session handle the browser holds instead of the service's session
 * id, and the relay ticket of a WebSocket address. Both are compact JWE (`dir`, A256GCM; jose) under a key derived
 * from `sessionSecret` with HKDF, so every proxy instance that shares the secret understands them, no store needed,
 * and the browser can read nothing inside them (a JWT's payload it could).
 */
export interface Sealer {
  /** The handle of a session: an opaque, URL-safe string (~170 characters, and about 1.4 per character of the client key). */
  handle(contents: HandleContents): Promise<string>;
  /** @throws LiveAiError 400 `invalid_request` when `handle` is not one of ours. */
  open(handle: string): Promise<HandleContents>;
  /** Seals any JSON value (purpose `use` is bound into the key, so a value of one purpose never opens as another). */
  seal(use: 'ws', value: unknown): Promise<string>;
  /** Opens a value sealed for `use`; undefined when it is not one of ours. */
  unseal(use: 'ws', sealed: string): Promise<unknown>;
}

export function createSealer(secret: Uint8Array): Sealer {
  const keys = new Map<string, Promise<Uint8Array>>();
  const keyFor = (use: string) => {
    let k = keys.get(use);
    if (!k) {
      k = deriveKey(secret, `liveai-kit/server ${use}`);
      keys.set(use, k);
    }
    return k;
  };
  const opened = new Map<string, HandleContents>();
  async function seal(use: string, value: unknown): Promise<string> {
    const plain = new TextEncoder().encode(JSON.stringify(value));
    return new CompactEncrypt(plain).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(await keyFor(use));
  }
  async function unseal(use: string, sealed: string): Promise<unknown> {
    if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_CHARS) return undefined;
    try {
      const { plaintext } = await compactDecrypt(sealed, await keyFor(use), {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
    } catch {
      return undefined;
    }
  }
  return {
    handle: ({ sessionId, startedAt, endsAt, client }) =>
      seal('handle', {
        s: sessionId,
        t: startedAt,
        ...(endsAt !== undefined ? { e: endsAt } : {}),
        ...(client !== undefined ? { c: client } : {}),
      }),
    async open(handle) {
      const known = opened.get(handle);
      if (known) return known;
      const v = (await unseal('handle', handle)) as { s?: unknown; t?: unknown; e?: unknown; c?: unknown } | undefined;
      if (
        typeof v?.s !== 'string' ||
        typeof v.t !== 'number' ||
        (v.e !== undefined && typeof v.e !== 'number') ||
        (v.c !== undefined && typeof v.c !== 'string')
      ) {
        throw new LiveAiError('invalid_request', 'Invalid session id', { status: 400 });
      }
      const contents: HandleContents = {
        sessionId: v.s,
        startedAt: v.t,
        ...(typeof v.e === 'number' ? { endsAt: v.e } : {}),
        ...(typeof v.c === 'string' ? { client: v.c } : {}),
      };
      if (opened.size >= CACHE_MAX) opened.delete(opened.keys().next().value as string);
      opened.set(handle, contents);
      return contents;
    },
    seal,
    unseal,
  };
}

/** A 256-bit key for one purpose, derived from the session secret with HKDF-SHA-256 (WebCrypto). */
async function deriveKey(secret: Uint8Array, info: string): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(info) },
    base,
    256,
  );
  return new Uint8Array(bits);
}

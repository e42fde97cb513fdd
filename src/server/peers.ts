import { LiveAiError } from '../core/index';

/** Node's `require` as this module would see it; what `nodeRequire` returns. */
export type NodeRequire = ((id: string) => unknown) & { resolve(id: string): string };

let requireFrom: NodeRequire | null | undefined;

/**
 * Node's `require`, relative to this module, made on first use, or undefined on a runtime without Node's module
 * loader (Cloudflare Workers, Vercel Edge, a browser). Nothing Node-only runs when this module is imported, so
 * `liveai-kit/server` imports everywhere; `process.getBuiltinModule` exists on Node (>= 22.3), Deno and Bun.
 */
export function nodeRequire(): NodeRequire | undefined {
  if (requireFrom === undefined) {
    requireFrom = null;
    try {
      const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      const mod = proc?.getBuiltinModule?.('node:module') as { createRequire?: (from: string) => NodeRequire } | undefined;
      const here: unknown = import.meta.url;
      if (mod?.createRequire && typeof here === 'string') requireFrom = mod.createRequire(here);
    } catch {
      requireFrom = null;
    }
  }
  return requireFrom ?? undefined;
}

/** An optional package a proxy needs for the options it was given, and what for. */
export interface PeerNeed {
  name: string;
  why: string;
}

/**
 * True when `name` can be resolved from this package (it is installed where Node or the bundler will look). Also
 * true where no module loader can tell (a bundled Worker): a missing package then fails where it is imported.
 */
export function installed(name: string): boolean {
  const req = nodeRequire();
  if (!req) return true;
  try {
    req.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The optional packages `createAvatarProxy` (`'express'`) or `createAvatarHandler` (`'fetch'`) needs for `options`:
 * express and multer for the Express router, express-rate-limit unless `rateLimit: false`, livekit-server-sdk
 * when `livekit` is set (it mints the room tokens of `rtc-a` sessions).
 */
export function peersFor(kind: 'express' | 'fetch', options: { livekit?: unknown; rateLimit?: unknown }): PeerNeed[] {
  const needs: PeerNeed[] = [];
  if (kind === 'express') {
    needs.push({ name: 'express', why: 'the router' }, { name: 'multer', why: 'multipart image uploads' });
    if (options.rateLimit !== false) needs.push({ name: 'express-rate-limit', why: 'rate limits (or pass rateLimit: false)' });
  }
  if (options.livekit !== undefined)
    needs.push({ name: 'livekit-server-sdk', why: 'the `livekit` option (room tokens of rtc-a sessions)' });
  return needs;
}

/**
 * Checks, when a proxy is created, that every package its options need is installed, so a missing one fails at
 * start-up instead of as a 500 on the first request.
 * @throws LiveAiError `missing_peer` listing ALL missing packages, what each is for, and one install command.
 */
export function assertPeers(usedBy: string, needs: PeerNeed[]): void {
  const missing = needs.filter((n) => !installed(n.name));
  if (missing.length === 0) return;
  const list = missing.map((n) => `${n.name} (${n.why})`).join(', ');
  throw new LiveAiError(
    'missing_peer',
    `${usedBy} needs ${missing.length === 1 ? 'a package that is' : 'packages that are'} not installed: ${list}. ` +
      `Install: npm install ${missing.map((n) => n.name).join(' ')}`,
  );
}

/**
 * Loads an optional peer dependency synchronously, so `liveai-kit/server` can be imported (e.g. for
 * `createAvatarHandler` in a Next.js route) without Express, multer or express-rate-limit installed.
 * @throws LiveAiError `missing_peer` with the install command.
 */
export function loadPeer<T>(name: string, usedBy: string): T {
  try {
    const req = nodeRequire();
    if (!req) throw new Error('this runtime has no require() (Node, Deno or Bun has)');
    return req(name) as T;
  } catch (cause) {
    throw new LiveAiError('missing_peer', `${usedBy} needs the package "${name}": npm install ${name}`, { cause });
  }
}

import { createRequire } from 'node:module';
import { LiveAiError } from '../core/index';

const requireFrom = createRequire(import.meta.url);

/** An optional package a proxy needs for the options it was given, and what for. */
export interface PeerNeed {
  name: string;
  why: string;
}

/** True when `name` can be resolved from this package (it is installed where Node or the bundler will look). */
export function installed(name: string): boolean {
  try {
    requireFrom.resolve(name);
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
    return requireFrom(name) as T;
  } catch (cause) {
    throw new LiveAiError('missing_peer', `${usedBy} needs the package "${name}": npm install ${name}`, { cause });
  }
}

import { createRequire } from 'node:module';
import { LiveAiError } from '../core/errors';

const requireFrom = createRequire(import.meta.url);

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

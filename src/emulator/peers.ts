import { createRequire } from 'node:module';
import { LiveAiError } from '../core/index';

const requireFrom = createRequire(import.meta.url);

/** The packages `liveai-kit/emulator` loads, what each is for, and whether the emulator runs without it. */
const PEERS: readonly { name: string; why: string; optional?: true }[] = [
  { name: 'express', why: 'the HTTP server' },
  { name: 'multer', why: 'multipart image uploads' },
  { name: 'ws', why: 'WebSocket audio' },
  { name: 'sharp', why: 'agent images and the synthetic video' },
  { name: 'livekit-server-sdk', why: 'room tokens and the LiveKit server check' },
  { name: '@livekit/rtc-node', why: 'the avatar in LiveKit rooms; without it, use media: false', optional: true },
];

const installed = (name: string): boolean => {
  try {
    requireFrom.resolve(name);
    return true;
  } catch {
    return false;
  }
};

/**
 * Checks, before `liveai-kit/emulator` loads anything else, that the packages it needs are installed (they are
 * optional peers of liveai-kit), so a missing one is not a bare `ERR_MODULE_NOT_FOUND` naming one package at a time.
 * @throws LiveAiError `missing_peer` naming ALL missing packages, what each is for, and one install command (or the
 * `liveai-emulator` package, which brings them all).
 */
export function assertEmulatorPeers(isInstalled: (name: string) => boolean = installed): void {
  const missing = PEERS.filter((p) => !isInstalled(p.name));
  if (!missing.some((p) => !p.optional)) return;
  const list = missing.map((p) => `${p.name} (${p.why})`).join(', ');
  throw new LiveAiError(
    'missing_peer',
    `liveai-kit/emulator needs packages that are not installed: ${list}. ` +
      `Install: npm install -D ${missing.map((p) => p.name).join(' ')} ` +
      `(or npm install -D liveai-emulator, which brings them all and exports the same createEmulator)`,
  );
}

import { createSessionEngine } from './engine';
import type { AvatarSession, AvatarSessionOptions } from './types';

/**
 * Creates a session engine: the only writer of its zustand store.
 * Flows: `room` (POST {proxyUrl}/rooms), `session` (POST {proxyUrl}/sessions, JSON or multipart), `attach`.
 * Nothing touches `window`/`document` until `start()`. See `AvatarSession` for each method; errors are
 * `LiveAiError` (see `ErrorCode`), reported in `state.error` and on the `error` channel, never thrown synchronously.
 */
export function createAvatarSession(options: AvatarSessionOptions): AvatarSession {
  return createSessionEngine(options);
}

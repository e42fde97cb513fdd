/**
 * liveai-kit/schemas: the zod (zod/mini) schemas of every resource, request, event and error of the service
 * and the validators built on them. The proxy and the emulator use the same set.
 * In the browser the session engine loads this module lazily (`loadValidation`) when a session starts, so
 * a page pays for zod only once it calls the service, together with the transport SDK.
 * Loading it installs zod's English messages (zod/mini has none by default), as `import 'zod'` would, so a
 * rejected input reads e.g. `session_id: Invalid input: expected string, received undefined`.
 *
 * @module liveai-kit/schemas
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from './schemas';
export { parseAvatarEventMessage, type ParsedMessage } from './events/parse';
export { validateControlEvent } from './session/validate-control';

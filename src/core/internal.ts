/**
 * The one internal entry of the core for the other layers (React hooks, components, the element, the proxy, the
 * local service, the testing helpers): what they need of the core that is not part of a public entry. It is not a
 * package entry; every export here is `@internal` unless its declaration is tagged otherwise (the provider label
 * types are public through `liveai-kit/server` and `liveai-kit/emulator`). Public names are imported from the
 * public entries (`./index`, `./validation`, `./transports/livekit`, `./transports/daily`), never from here.
 * Other layers never import a deeper core module; `npm run lint` fails such an import.
 * @internal
 * @packageDocumentation
 */
export { codeForStatus, formatIssues, formatZodError, invalidRequest } from './errors';
export { createEventBus } from './events/bus';
export { keepAudioContextRunning } from './audio/keep-running';
export { loadProxyClient } from './lazy';
export { blobToText } from './image/blob';
export {
  providerRenamer,
  type NeutralProvider,
  type ProviderLabels,
  type ProviderLabelsInput,
  type ProviderRenamer,
} from './provider-labels';
export { isWaiting } from '../shared/phases';
export { decodedBase64Bytes, isBase64, stripDataUrl } from './schemas/plain';
export { createSeededSession } from './session/session';
export type { SessionStatePatch } from './session/types';
export { preloadEngine } from './session/create';

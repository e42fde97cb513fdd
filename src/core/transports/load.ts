import { LiveAiError } from '../errors';
import type { MediaTransport } from '../schemas';
import type { TransportFactory, TransportLoader } from './types';

const HINTS: Record<MediaTransport, string> = {
  'rtc-a': 'install livekit-client: npm i livekit-client',
  'rtc-b': 'install @daily-co/daily-js: npm i @daily-co/daily-js',
};
const cache = new Map<MediaTransport, Promise<TransportFactory>>();

/**
 * Default transport loader (architecture §1): loads the adapter chunk with `import()` on first use, so a page
 * using one transport never downloads the other SDK.
 * @throws LiveAiError `missing_peer` with an install hint when the SDK cannot be imported; `invalid_request`
 *   for an unknown kind.
 */
export const loadTransport: TransportLoader = (kind) => {
  let p = cache.get(kind);
  if (!p) {
    p = importAdapter(kind);
    cache.set(kind, p);
    p.catch(() => cache.delete(kind));
  }
  return p;
};

/**
 * Starts loading the adapter chunk of `kind` now, without waiting (e.g. inside the Start click, in parallel with
 * the create call, or on hover of Start), so joining the room later does not wait for the download. Never throws:
 * a failed prefetch is forgotten and `loadTransport` tries again (and reports `missing_peer`) when it is needed.
 */
export function prefetchTransport(kind: MediaTransport): void {
  loadTransport(kind).catch(() => undefined);
}

async function importAdapter(kind: MediaTransport): Promise<TransportFactory> {
  try {
    if (kind === 'rtc-a') return (await import('./rtc-a')).createRtcATransport;
    if (kind === 'rtc-b') return (await import('./rtc-b')).createRtcBTransport;
  } catch (cause) {
    throw new LiveAiError('missing_peer', HINTS[kind], { cause });
  }
  throw new LiveAiError('invalid_request', `unknown transport ${String(kind)}`, { status: 400 });
}

import { LiveAiError } from '../errors';
import type { MediaTransport } from '../schemas';
import type { TransportFactory, TransportLoader } from './types';

/**
 * A media transport that can be registered: what `liveai-kit/livekit` (`rtc-a`, on livekit-client) and
 * `liveai-kit/daily` (`rtc-b`, on @daily-co/daily-js) export. `load` fetches the adapter (and its SDK) on first use.
 */
export interface TransportModule {
  readonly kind: MediaTransport;
  /** Loads the adapter; rejects with `LiveAiError('missing_peer')` when its SDK is not installed. */
  load(): Promise<TransportFactory>;
}

/** What a user must install and import to be able to join a room of each kind. */
export const TRANSPORT_PACKAGES: Readonly<Record<MediaTransport, { sdk: string; entry: string }>> = {
  'rtc-a': { sdk: 'livekit-client', entry: 'liveai-kit/livekit' },
  'rtc-b': { sdk: '@daily-co/daily-js', entry: 'liveai-kit/daily' },
};

const registry = new Map<MediaTransport, TransportModule>();
const cache = new Map<MediaTransport, Promise<TransportFactory>>();

/**
 * Registers transports for every session on the page that does not pass its own `loadTransport`. Importing
 * `liveai-kit/livekit` or `liveai-kit/daily` does this for you; calling it again with the same kind replaces it.
 */
export function registerTransport(...transports: TransportModule[]): void {
  for (const t of transports) {
    registry.set(t.kind, t);
    cache.delete(t.kind);
  }
}

/** The kinds registered right now (e.g. to show which rooms this page can join). */
export function registeredTransports(): MediaTransport[] {
  return [...registry.keys()];
}

/**
 * The error a session reports when its room needs a transport the page did not register: code `missing_peer`,
 * and a `detail` that names the package to install and the line to add.
 */
export function missingTransportError(kind: MediaTransport, cause?: unknown): LiveAiError {
  const p = TRANSPORT_PACKAGES[kind];
  if (!p) return new LiveAiError('invalid_request', `unknown transport ${String(kind)}`, { status: 400 });
  return new LiveAiError('missing_peer', `this ${kind} room needs ${p.sdk}: npm i ${p.sdk} and add \`import '${p.entry}';\` to your app`, {
    cause,
  });
}

/**
 * Default transport loader: resolves a registered transport (see `registerTransport`) and loads its adapter
 * chunk on first use, so a page never downloads an SDK it did not register.
 * @throws LiveAiError `missing_peer` naming the package to install and the import to add, when the room's kind
 *   is not registered or its SDK cannot be loaded; `invalid_request` for an unknown kind.
 */
export const loadTransport: TransportLoader = (kind) => {
  let p = cache.get(kind);
  if (!p) {
    const t = registry.get(kind);
    p = t
      ? t.load().then(remembering(kind), (cause: unknown) => Promise.reject(loadError(kind, cause)))
      : Promise.reject(missingTransportError(kind));
    cache.set(kind, p);
    p.catch(() => cache.delete(kind));
  }
  return p;
};

const LAST_KEY = 'liveai-kit.transport';

/** The factory, noting in localStorage the kind of each transport it creates (a session joining a room). */
const remembering =
  (kind: MediaTransport) =>
  (factory: TransportFactory): TransportFactory =>
  () => {
    try {
      globalThis.localStorage?.setItem(LAST_KEY, kind);
    } catch {
      // storage disabled (private mode, sandboxed frame): no hint next time
    }
    return factory();
  };

/** The transport the last session on this origin joined, when it is one of `kinds`. */
export function lastTransport(kinds: readonly MediaTransport[]): MediaTransport | null {
  let last: string | null = null;
  try {
    last = globalThis.localStorage?.getItem(LAST_KEY) ?? null;
  } catch {
    // storage disabled
  }
  return kinds.find((k) => k === last) ?? null;
}

function loadError(kind: MediaTransport, cause: unknown): unknown {
  if (cause instanceof LiveAiError) return cause;
  const p = TRANSPORT_PACKAGES[kind];
  return new LiveAiError('missing_peer', `${kind} needs ${p.sdk}: npm i ${p.sdk}`, { cause });
}

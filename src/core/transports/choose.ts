import { LiveAiError } from '../errors';
import type { ClientSession, MediaTransport, TransportType } from '../schemas';
import type { SessionFlow } from '../session/types';
import { livekitServerUrl, transportOfRoomUrl } from '../../shared/room-url';
import type { TransportFactory, TransportLoader } from './types';

/** What the choice of a media transport can go by; every field is optional, the first that tells wins. */
export interface TransportClues {
  /** The session option `transport`: always wins (when there is a room). */
  forced?: MediaTransport | undefined;
  /** The room URL of the session: `ws(s)://` is LiveKit, `http(s)://` Daily. `null`: the session has no room. */
  roomUrl?: string | null | undefined;
  /** `transport_type` of the session request, before the session exists (`websocket-rtc-a` joins LiveKit). */
  requested?: TransportType | undefined;
  /** The transports this page registered. */
  registered?: readonly MediaTransport[] | undefined;
  /** What the proxy advertises for its hosted rooms (`GET {proxyUrl}/transport`). */
  proxyHint?: MediaTransport | null | undefined;
  /** The transport the last session on this origin joined. */
  last?: MediaTransport | null | undefined;
}

/**
 * The one place that chooses a session's media transport (`rtc-a` is LiveKit, `rtc-b` Daily). In this order:
 * no room (`roomUrl: null`) → none; the `forced` option; the room URL's scheme; the requested `transport_type`;
 * then, for a hosted room not created yet, a prediction among the `registered` transports: the only one, the
 * proxy's word, the one the last session joined. Null when nothing tells; a prediction is never a transport the
 * page did not register. Pure.
 */
export function decideTransport(c: TransportClues): MediaTransport | null {
  if (c.roomUrl === null || c.roomUrl === '') return null;
  if (c.forced) return c.forced;
  if (c.roomUrl) return transportOfRoomUrl(c.roomUrl);
  if (c.requested) return c.requested.endsWith('rtc-a') ? 'rtc-a' : 'rtc-b';
  const kinds = c.registered ?? [];
  if (kinds.length <= 1) return kinds[0] ?? null;
  for (const k of [c.proxyHint, c.last]) if (k && kinds.includes(k)) return k;
  return null;
}

/**
 * The media transport of a created or attached session: an explicit choice wins; otherwise a `ws://` or
 * `wss://` room URL is `rtc-a` (LiveKit) and an `http(s)://` URL is `rtc-b` (Daily). Returns null when there
 * is no room to join (e.g. a websocket session without a viewer room).
 * @public
 */
export function chooseTransport(session: Pick<ClientSession, 'room_url'>, forced?: MediaTransport): MediaTransport | null {
  return decideTransport({ forced, roomUrl: session.room_url ?? null });
}

/** How a session starts, as far as the transport choice is concerned. */
type FlowClues =
  | { kind: 'room' }
  | { kind: 'session'; request: { transport_type: TransportType } }
  | { kind: 'attach'; session: Pick<ClientSession, 'room_url'> };

/**
 * The media transport a session will join, as far as it is known before the session is created, without asking
 * the proxy: a forced `transport`, the request's `transport_type`, the attached session's room, else the only
 * registered transport or the one the last session joined. Null when that does not tell.
 */
export function transportHint(options: {
  transport?: MediaTransport | undefined;
  flow: FlowClues | SessionFlow;
  transports?: TransportRegistry | undefined;
}): MediaTransport | null {
  const { flow } = options;
  const reg = options.transports ?? pageTransports;
  const registered = reg.kinds();
  return decideTransport({
    forced: options.transport,
    ...(flow.kind === 'attach' ? { roomUrl: flow.session.room_url ?? null } : {}),
    requested: flow.kind === 'session' ? flow.request.transport_type : undefined,
    registered,
    last: reg.last(registered),
  });
}

/** The transport the next hosted room will most likely need: the only registered one, or the one the last session joined. */
export function predictTransport(transports: TransportRegistry = pageTransports): MediaTransport | null {
  const registered = transports.kinds();
  return decideTransport({ registered, last: transports.last(registered) });
}

/**
 * What a proxy's `GET {proxyUrl}/transport` says about its hosted rooms: their transport, and for `rtc-a` the LiveKit
 * server they are on (`server_url`: scheme, host, port and path only), when the proxy knows them.
 */
export interface ProxyRoomHint {
  transport: MediaTransport | null;
  /** The LiveKit server of the hosted rooms (rtc-a only), e.g. `wss://my-project.livekit.cloud`; else null. */
  serverUrl: string | null;
}

const NO_HINT: ProxyRoomHint = Object.freeze({ transport: null, serverUrl: null });
const hints = new Map<string, Promise<ProxyRoomHint>>();

/**
 * The `GET /transport` answer checked field by field: a `transport` other than `rtc-a` / `rtc-b` counts as unknown;
 * a `server_url` counts only for `rtc-a`, as a `ws(s)://` URL already in its bare form (no user name, query or
 * fragment, at most 2048 characters). Anything else in the answer is ignored; never throws.
 */
export function parseRoomHint(body: unknown): ProxyRoomHint {
  if (typeof body !== 'object' || body === null) return NO_HINT;
  const { transport: t, server_url: u } = body as { transport?: unknown; server_url?: unknown };
  const transport = t === 'rtc-a' || t === 'rtc-b' ? t : null;
  const serverUrl = transport === 'rtc-a' && typeof u === 'string' && u.length <= 2048 && livekitServerUrl(u) === u ? u : null;
  return { transport, serverUrl };
}

/**
 * What the proxy at `proxyUrl` advertises for its hosted rooms (`GET {proxyUrl}/transport` →
 * `{"transport": "rtc-a", "server_url": "wss://…"}`). Asked once per `proxyUrl` for the life of the page; unknown
 * fields are null when the proxy does not know (or is older and has no such route, or cannot be reached, or
 * answers something else). Never rejects.
 */
export function proxyRoomHint(proxyUrl: string, fetchImpl: typeof fetch | undefined = globalThis.fetch): Promise<ProxyRoomHint> {
  const url = `${proxyUrl.replace(/\/+$/, '')}/transport`;
  let hint = hints.get(url);
  if (!hint) {
    hint = ask(url, fetchImpl);
    hints.set(url, hint);
  }
  return hint;
}

/** The transport of the hosted rooms of the proxy at `proxyUrl`, as it advertises it (see `proxyRoomHint`). */
export function proxyTransportHint(
  proxyUrl: string,
  fetchImpl: typeof fetch | undefined = globalThis.fetch,
): Promise<MediaTransport | null> {
  return proxyRoomHint(proxyUrl, fetchImpl).then((h) => h.transport);
}

async function ask(url: string, fetchImpl: typeof fetch | undefined): Promise<ProxyRoomHint> {
  if (!fetchImpl) return NO_HINT;
  try {
    const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout?.(10_000) });
    if (!res.ok) return NO_HINT;
    return parseRoomHint(await res.json());
  } catch {
    return NO_HINT;
  }
}

/**
 * The transport a hosted room of this proxy will need, so its adapter and SDK can be fetched before the create
 * call answers: as `transportHint`, but with several transports registered the proxy is asked first
 * (`proxyTransportHint`, only then). Null when nothing tells; never rejects.
 */
export async function predictRoomTransport(options: {
  transport?: MediaTransport | undefined;
  proxyUrl?: string;
  fetch?: typeof fetch;
  transports?: TransportRegistry | undefined;
}): Promise<MediaTransport | null> {
  const reg = options.transports ?? pageTransports;
  const registered = reg.kinds();
  const ask = !options.transport && registered.length > 1 && options.proxyUrl;
  const proxyHint = ask ? await proxyTransportHint(options.proxyUrl!, options.fetch) : null;
  return decideTransport({ forced: options.transport, registered, proxyHint, last: reg.last(registered) });
}

/**
 * Warms a connection to the media server of a transport ahead of the first join (`TransportRegistry.prepare`).
 */
export type PrepareConnection = (kind: MediaTransport, url: string) => void;

/**
 * Starts downloading the adapter and SDK of the transport the session will join (see `prefetch()`): known at
 * once (`transportHint`), or for a hosted room on a page with several transports registered, predicted with the
 * proxy's help (`predictRoomTransport`). With `prepare`, it also warms the connection to the LiveKit server when
 * its URL is known: an attached session's `room_url`, or for a hosted room that will be on LiveKit the proxy's
 * `server_url`. Never rejects; a predicted transport is always one the page registered.
 */
export function prefetchTransport(
  options: {
    transport?: MediaTransport | undefined;
    flow: FlowClues;
    proxyUrl: string;
    fetch?: typeof fetch | undefined;
    transports?: TransportRegistry | undefined;
  },
  load: (kind: MediaTransport) => Promise<unknown>,
  prepare?: PrepareConnection,
): void {
  const skip = () => undefined;
  const { flow } = options;
  const kinds = (options.transports ?? pageTransports).kinds();
  const known = options.transport || flow.kind !== 'room' || kinds.length <= 1 ? transportHint(options) : null;
  if (known) load(known).catch(skip);
  if (flow.kind === 'attach') {
    const url = livekitServerUrl(flow.session.room_url);
    if (known === 'rtc-a' && url && prepare) prepare('rtc-a', url);
    return;
  }
  // A hosted room: the proxy may say which transport (several registered) and which LiveKit server. Both come from
  // one `GET /transport` (its answer is shared per proxy).
  if (flow.kind !== 'room' || (known ? known !== 'rtc-a' || !prepare : kinds.length <= 1)) return;
  const kind = known ? Promise.resolve(known) : predictRoomTransport(options);
  if (!known) kind.then((k) => k && load(k).catch(skip)).catch(skip);
  if (prepare)
    Promise.all([kind, proxyRoomHint(options.proxyUrl, options.fetch)])
      .then(([k, hint]) => {
        if (k === 'rtc-a' && hint.transport === 'rtc-a' && hint.serverUrl) prepare('rtc-a', hint.serverUrl);
      })
      .catch(skip);
}

// The transports a page registered, and how their adapters load: the only kinds `decideTransport` predicts.

/**
 * A media transport that can be registered: what `liveai-kit/livekit` (`rtc-a`, on livekit-client) and
 * `liveai-kit/daily` (`rtc-b`, on @daily-co/daily-js) export. `load` fetches the adapter (and its SDK) on first use.
 * @public
 */
export interface TransportModule {
  readonly kind: MediaTransport;
  /** Loads the adapter; rejects with `LiveAiError('missing_peer')` when its SDK is not installed. */
  load(): Promise<TransportFactory>;
  /**
   * Optional: warms the connection to the media server at `url` before the first join (DNS, TCP and TLS; the
   * LiveKit transport calls livekit-client's `Room.prepareConnection`), loading the adapter if needed. Never throws.
   */
  prepare?(url: string): void;
}

/** What a user must install and import to be able to join a room of each kind. */
export const TRANSPORT_PACKAGES: Readonly<Record<MediaTransport, { sdk: string; entry: string }>> = {
  'rtc-a': { sdk: 'livekit-client', entry: 'liveai-kit/livekit' },
  'rtc-b': { sdk: '@daily-co/daily-js', entry: 'liveai-kit/daily' },
};

/**
 * Where a registry remembers the transport the last session joined (its prediction for the next hosted room): any
 * `getItem` / `setItem` store, e.g. `localStorage` or `sessionStorage`.
 * @public
 */
export type TransportMemory = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The transports a session may join, and how their adapters load: a value, so two sessions (or two tests) with
 * different registries never see each other's transports. `import 'liveai-kit/livekit'` registers into the page's
 * default registry (`pageTransports`), which every session uses unless its `transports` option names another.
 * @beta
 */
export interface TransportRegistry {
  /** Registers transports (the same kind again replaces it). */
  register(...transports: TransportModule[]): void;
  /** The kinds registered now. */
  kinds(): MediaTransport[];
  /** Loads the adapter of a kind (once); rejects with `missing_peer` naming what to install when it is not registered. */
  load: TransportLoader;
  /** The transport the last session of this registry joined, when it is one of `kinds` (null without a memory). */
  last(kinds: readonly MediaTransport[]): MediaTransport | null;
  /**
   * Warms the connection to a media server of a registered kind before the first join (see
   * `TransportModule.prepare`), once per kind and URL; nothing for a kind not registered or without `prepare`.
   * Never throws.
   */
  prepare?(kind: MediaTransport, url: string): void;
}

const LAST_KEY = 'liveai-kit.transport';

/**
 * A transport registry of its own (see `TransportRegistry`), e.g. for a session that must join only LiveKit rooms
 * whatever the page registered, or for a test: `createAvatarSession({ ..., transports: createTransportRegistry({
 * transports: [livekitTransport] }) })`.
 * @param o.transports registered at once.
 * @param o.memory where the last joined transport is remembered, to predict the next one (key
 *   `liveai-kit.transport`); none by default. The page's default registry uses `localStorage`.
 * @beta
 */
export function createTransportRegistry(
  o: { transports?: readonly TransportModule[]; memory?: TransportMemory | null } = {},
): TransportRegistry {
  const modules = new Map<MediaTransport, TransportModule>();
  const cache = new Map<MediaTransport, Promise<TransportFactory>>();
  /** The servers warmed already (`kind url`): each once. */
  const prepared = new Set<string>();
  const memory = () => o.memory ?? null;
  const remembering =
    (kind: MediaTransport) =>
    (factory: TransportFactory): TransportFactory =>
    () => {
      try {
        memory()?.setItem(LAST_KEY, kind);
      } catch {
        // storage disabled (private mode, sandboxed frame): no hint next time
      }
      return factory();
    };
  const registry: TransportRegistry = {
    register(...transports) {
      for (const t of transports) {
        modules.set(t.kind, t);
        cache.delete(t.kind);
      }
    },
    kinds: () => [...modules.keys()],
    load: (kind) => {
      let p = cache.get(kind);
      if (!p) {
        const t = modules.get(kind);
        p = t
          ? t.load().then(remembering(kind), (cause: unknown) => Promise.reject(loadError(kind, cause)))
          : Promise.reject(missingTransportError(kind));
        cache.set(kind, p);
        p.catch(() => cache.delete(kind));
      }
      return p;
    },
    prepare(kind, url) {
      if (prepared.has(`${kind} ${url}`)) return;
      prepared.add(`${kind} ${url}`);
      try {
        modules.get(kind)?.prepare?.(url);
      } catch {
        // a warm-up only: the join does the real work
      }
    },
    last(kinds) {
      let last: string | null = null;
      try {
        last = memory()?.getItem(LAST_KEY) ?? null;
      } catch {
        // storage disabled
      }
      return kinds.find((k) => k === last) ?? null;
    },
  };
  registry.register(...(o.transports ?? []));
  return registry;
}

/** `localStorage` where the page has one (read when used: never at import, so server rendering is safe). */
const pageMemory: TransportMemory = {
  getItem: (key) => globalThis.localStorage?.getItem(key) ?? null,
  setItem: (key, value) => globalThis.localStorage?.setItem(key, value),
};

/**
 * The page's default transport registry: what `import 'liveai-kit/livekit'` and `import 'liveai-kit/daily'` register
 * into, used by every session without a `transports` option. It remembers the last joined transport in
 * `localStorage` under `liveai-kit.transport`.
 * @beta
 */
export const pageTransports: TransportRegistry = createTransportRegistry({ memory: pageMemory });

/**
 * Registers transports for every session on the page that does not pass its own `transports` or `loadTransport`
 * (the page's default registry). Importing `liveai-kit/livekit` or `liveai-kit/daily` does this for you; calling it
 * again with the same kind replaces it.
 * @public
 */
export function registerTransport(...transports: TransportModule[]): void {
  pageTransports.register(...transports);
}

/** The kinds registered right now in the page's default registry. */
export function registeredTransports(): MediaTransport[] {
  return pageTransports.kinds();
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
 * Default transport loader: resolves a transport of the page's default registry (see `registerTransport`) and loads
 * its adapter chunk on first use, so a page never downloads an SDK it did not register.
 * @throws LiveAiError `missing_peer` naming the package to install and the import to add, when the room's kind
 *   is not registered or its SDK cannot be loaded; `invalid_request` for an unknown kind.
 * @public
 */
export const loadTransport: TransportLoader = (kind) => pageTransports.load(kind);

/** The transport the last session on this origin joined (page registry), when it is one of `kinds`. */
export function lastTransport(kinds: readonly MediaTransport[]): MediaTransport | null {
  return pageTransports.last(kinds);
}

function loadError(kind: MediaTransport, cause: unknown): unknown {
  if (cause instanceof LiveAiError) return cause;
  const p = TRANSPORT_PACKAGES[kind];
  return new LiveAiError('missing_peer', `${kind} needs ${p.sdk}: npm i ${p.sdk}`, { cause });
}

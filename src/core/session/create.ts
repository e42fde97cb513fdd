// The session object an app holds. It is made at once with what a first paint reads or sets (the store, the event
// channels, the audio output and the user's audio and keep-alive choices); the session engine (session.ts: the state
// machine, the calls, the proxy client, polling, keep-alive) loads with `import()`, ahead of the click when
// something asks for it (`prefetch()`, a React provider that mounted), else with the first method that needs it.
import type { StoreApi } from 'zustand/vanilla';
import { LiveAiError } from '../errors';
import { createEventBus, type EventBus } from '../events/bus';
import { loadCallSchemas, loadOnce } from '../lazy';
import type { AvatarEvent } from '../schemas';
import { pageTransports, prefetchTransport } from '../transports/choose';
import { createAudioOutput, type AudioOutput } from './audio-output';
import { watchMetrics } from './metrics';
import type { SessionEngine } from './session';
import { createSessionStore } from './store';
import type {
  AvatarSession,
  AvatarSessionOptions,
  MediaState,
  OnEvent,
  ReadonlySessionStore,
  SessionState,
  SessionStatePatch,
} from './types';

export type BusMap = { [K in AvatarEvent['type']]: Extract<AvatarEvent, { type: K }> } & { '*': AvatarEvent; error: LiveAiError };

/**
 * What the session object and its engine share: the store, the event channels, the audio output. The host is the
 * only writer of the user's audio and keep-alive choices (`media.speakerMuted`, `media.volume`, `keepAlive`) and of
 * what the audio output reports (`media.audioBlocked`); the engine writes every other fact.
 */
export interface SessionHost {
  readonly store: StoreApi<SessionState>;
  readonly bus: EventBus<BusMap>;
  readonly audio: AudioOutput;
  report(error: LiveAiError): void;
  setSpeakerMuted(muted: boolean): void;
  setVolume(volume: number): void;
  setKeepAlive(on: boolean): void;
}

/** The host of one session; `initialState` seeds its store (stories, `liveai-kit/testing`). */
export function createHost(options: AvatarSessionOptions, initialState?: SessionStatePatch): SessionHost {
  const store = createSessionStore({ keepAlive: !!options.keepAliveMs, ...initialState });
  const media = () => store.getState().media;
  const setMedia = (patch: Partial<MediaState>) => store.setState({ media: { ...media(), ...patch } });
  const report = (error: LiveAiError) => bus.emit('error', error);
  const bus = createEventBus<BusMap>((error, name) => {
    if (name !== 'error') report(new LiveAiError('handler_error', `an event handler threw: ${String(error)}`, { cause: error }));
  });
  const { speakerMuted: muted, volume } = media();
  const audio = createAudioOutput((blocked) => media().audioBlocked !== blocked && setMedia({ audioBlocked: blocked }), { muted, volume });
  return {
    store,
    bus,
    audio,
    report,
    setSpeakerMuted(m) {
      audio.setMuted(m);
      if (media().speakerMuted !== m) setMedia({ speakerMuted: m });
    },
    // Clamps to 0–1; a non-finite value keeps the current volume.
    setVolume(v) {
      const next = Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : media().volume;
      audio.setVolume(next);
      if (media().volume !== next) setMedia({ volume: next });
    },
    setKeepAlive: (on) => store.getState().keepAlive !== on && store.setState({ keepAlive: on }),
  };
}

/** Loads the engine of each session object made here (see `preloadEngine`). */
const engines = new WeakMap<AvatarSession, () => Promise<unknown>>();

/**
 * Starts downloading the session engine of `session` if it is not there yet (a React provider calls it once it
 * mounted, so the engine is in before the Start click). Resolves once it is in; never rejects (a failed download is
 * tried again by the next method that needs it).
 */
export async function preloadEngine(session: AvatarSession): Promise<void> {
  await engines
    .get(session)?.()
    .catch(() => undefined);
}

const disposedError = () => new LiveAiError('aborted', 'this session was disposed');

/**
 * The public face of a session over `host`: with `engine` given it is used at once (seeded sessions); without, the
 * engine loads on demand. Methods that need the engine wait for the same download, in the order they were called;
 * the synchronous ones (`store`, `on`, `setVolume`, `setSpeakerMuted`, `setKeepAlive`, `unblockAudio`, …) never wait.
 */
export function sessionObject(options: AvatarSessionOptions, host: SessionHost, engine: SessionEngine | null = null): AvatarSession {
  let disposed: { end?: boolean } | null = null;
  /** The `start()` that waits for the engine (a second click shares it; `end()` then waits for the engine too). */
  let waitingStart: Promise<void> | null = null;
  const load = loadOnce(() =>
    import('./session').then(
      (m) => {
        if (!engine) {
          engine = new m.SessionEngine(options, host);
          // Disposed while it loaded: so is the engine (a start that waited for it then rejects with `aborted`).
          if (disposed) engine.dispose(disposed);
        }
        return engine;
      },
      (cause: unknown) => {
        throw new LiveAiError('transport_failed', `could not load the session code: ${String(cause)}`, { cause });
      },
    ),
  );
  const withEngine = <T>(run: (s: SessionEngine) => Promise<T>): Promise<T> => (engine ? run(engine) : load().then(run));
  const onMetric = options.onMetric;
  const stopMetrics = onMetric
    ? watchMetrics(host.store, (metric) => {
        try {
          onMetric(metric);
        } catch (error) {
          host.report(new LiveAiError('handler_error', `onMetric threw: ${String(error)}`, { cause: error }));
        }
      })
    : () => {};

  const face: AvatarSession = {
    store: Object.freeze({
      getState: host.store.getState,
      getInitialState: host.store.getInitialState,
      subscribe: host.store.subscribe,
    }) satisfies ReadonlySessionStore,
    on: ((type: keyof BusMap, handler: (payload: unknown) => void) => host.bus.on(type, handler)) as OnEvent,
    onError: (handler) => host.bus.on('error', handler),
    getClientSession: () => engine?.clientSession ?? null,
    preConnectAudio: options.flow.kind === 'attach' && options.preConnectAudio !== false,
    start: () => {
      if (engine) return engine.start();
      if (disposed) return Promise.reject(disposedError());
      host.audio.prime(); // synchronously, inside the click that called start()
      return (waitingStart ??= load().then(
        (s) => {
          waitingStart = null;
          return s.start();
        },
        (error: unknown) => {
          waitingStart = null;
          host.report(error as LiveAiError);
          throw error;
        },
      ));
    },
    prefetch: () => {
      loadCallSchemas().catch(() => undefined);
      // A loader of the page's own (`loadTransport`) has no connection to warm.
      const registry = options.loadTransport ? null : (options.transports ?? pageTransports);
      prefetchTransport(options, options.loadTransport ?? registry!.load, registry?.prepare?.bind(registry));
      load().catch(() => undefined);
    },
    end: (reason) => (engine || waitingStart ? withEngine((s) => s.end(reason)) : Promise.resolve()),
    sendChat: (text) => withEngine((s) => s.sendChat(text)),
    forceEnd: () => withEngine((s) => s.forceEnd()),
    interrupt: () => withEngine((s) => s.interrupt()),
    control: (event) => withEngine((s) => s.control(event)),
    updateImage: (input) => withEngine((s) => s.updateImage(input)),
    updateAgentPrompt: (prompt) => withEngine((s) => s.updateAgentPrompt(prompt)),
    updateIdlePrompt: (prompt) => withEngine((s) => s.updateIdlePrompt(prompt)),
    action: (name) => withEngine((s) => s.action(name)),
    resetIdleTimeout: () => withEngine((s) => s.resetIdleTimeout()),
    leaveMeeting: (id) => withEngine((s) => s.leaveMeeting(id)),
    setMicEnabled: (enabled) => withEngine((s) => s.setMicEnabled(enabled)),
    setSpeakerMuted: (muted) => host.setSpeakerMuted(muted),
    setVolume: (volume) => host.setVolume(volume),
    setDevice: (kind, id) => withEngine((s) => s.setDevice(kind, id)),
    setKeepAlive: (on) => host.setKeepAlive(on),
    getCallStats: () => engine?.getCallStats() ?? Promise.resolve(null),
    unblockAudio: () => host.audio.unblock(),
    dispose: (o = {}) => {
      stopMetrics();
      if (engine) return engine.dispose(o);
      if (disposed) return;
      disposed = o;
      // Nothing was started: nothing to end, and the engine need not load.
      if (!waitingStart) {
        host.audio.destroy();
        host.bus.clear();
      }
    },
  };
  engines.set(face, load);
  return face;
}

/**
 * Creates an avatar session: the only writer of its zustand store.
 * Flows: `room` (POST {proxyUrl}/rooms), `session` (POST {proxyUrl}/sessions, JSON or multipart), `attach`.
 * Nothing touches `window`/`document` until `start()`. See `AvatarSession` for each method; errors are
 * `LiveAiError` (see `ErrorCode`), reported in `state.error` and on the `error` channel, never thrown synchronously.
 * The session's engine is code that loads on demand: `prefetch()` (or mounting an `AvatarSessionProvider`) loads it
 * ahead of the click; otherwise `start()` and the methods that need it wait for it.
 * @public
 */
export function createAvatarSession(options: AvatarSessionOptions): AvatarSession {
  return sessionObject(options, createHost(options));
}

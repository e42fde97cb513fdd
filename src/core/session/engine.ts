import { LiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import { lazyTranscriptMerger, loadGuards } from '../lazy';
import { createProxyClient } from '../proxy-client';
import type { AvatarEvent, SessionStatusResponse } from '../schemas';
import { createSessionStore, restartedState } from '../store/state';
import { DEFAULT_MAX_TRANSCRIPT_LINES } from '../store/reducers';
import { loadTransport as defaultLoader } from '../transports/load';
import { createAudioOutput } from './audio-output';
import { createCommands, createMediaCommands, withImageProgress } from './commands';
import { phaseOf, stageOf, transition, type Input, type Stage } from './machine';
import { chooseTransport, prefetchTransport } from './phase';
import { isFinal, Run, toError, type RunHooks } from './run';
import { runStart, type StartDeps } from './start';
import { endRun } from './teardown';
import { createEventHandler, eventPatch, wireTransport } from './wiring';
import type { TransportEventMap } from '../transports/types';
import type { AvatarSession, AvatarSessionOptions, EndReason, EngineInternals, OnEvent, SessionState } from './types';

type BusMap = { [K in AvatarEvent['type']]: Extract<AvatarEvent, { type: K }> } & { '*': AvatarEvent; error: LiveAiError };

/**
 * The engine behind `createAvatarSession`, optionally seeded (stories, `liveai-kit/testing`).
 * @internal
 */
export function createSessionEngine(options: AvatarSessionOptions, internals: EngineInternals = {}): AvatarSession {
  const store = createSessionStore({ keepAlive: !!options.keepAliveMs, ...internals.initialState });
  const get = store.getState;
  const set = (patch: Partial<SessionState>) => store.setState(patch);
  const setMedia = (patch: Partial<SessionState['media']>) => set({ media: { ...get().media, ...patch } });
  const report = (error: LiveAiError) => bus.emit('error', error);
  const bus = createEventBus<BusMap>((error, name) => {
    if (name !== 'error') report(new LiveAiError('handler_error', `an event handler threw: ${String(error)}`, { cause: error }));
  });
  const proxy = createProxyClient({ proxyUrl: options.proxyUrl, fetch: options.fetch, timeoutMs: options.requestTimeoutMs });
  const loader = options.loadTransport ?? defaultLoader;
  const maxLines = options.maxTranscriptLines ?? DEFAULT_MAX_TRANSCRIPT_LINES;
  const pendingDevices = new Map<'audioinput' | 'videoinput', string>();
  const intervalMs = options.pollIntervalMs ?? 1000;
  const timing = { intervalMs, maxIntervalMs: Math.max(options.maxPollIntervalMs ?? 5000, intervalMs) };
  const { speakerMuted: muted, volume } = get().media;
  const audio = createAudioOutput((blocked) => get().media.audioBlocked !== blocked && setMedia({ audioBlocked: blocked }), {
    muted,
    volume,
  });

  let stage: Stage = stageOf(get().phase);
  let run: Run | null = null;
  let startPromise: Promise<void> | null = null;
  let endPromise: Promise<void> | null = null;
  let disposed = false;
  let lineId = 0;
  // The transcript merger loads when the room first sends a transcription of its own (see `lazyTranscriptMerger`).
  const transcript = lazyTranscriptMerger(
    () => ++lineId,
    maxLines,
    () => get().transcript,
  );

  /** Writes `patch` with the phase derived from the stage and the facts: the only place the phase is written. */
  function commit(patch: Partial<SessionState> = {}): void {
    const s = { ...get(), ...patch };
    const c = run?.client;
    const hasRoom = c ? chooseTransport(c, options.transport) !== null : false;
    const video = s.media.videoTrack;
    const phase = phaseOf(stage, {
      status: s.sessionStatus,
      connection: s.media.connection,
      hasRoom,
      wasActive: s.activeAt !== null,
      videoFlowing: !!video && !video.muted,
    });
    const now = Date.now();
    set({
      ...patch,
      phase,
      queuedAt: phase === 'queued' ? (s.queuedAt ?? now) : s.queuedAt,
      activeAt: phase === 'active' ? (s.activeAt ?? now) : s.activeAt,
    });
    if (phase === 'active' && run) {
      run.becameActive();
      // One keep-alive per active call; it sends only while `keepAlive` is on (setKeepAlive).
      run.startKeepAlive(
        options.keepAliveMs || 30_000,
        () => get().keepAlive && get().phase === 'active' && session.resetIdleTimeout().catch((e) => report(toError(e))),
      );
    }
  }

  /** Moves the machine along one edge of its table; false (and nothing written) when `input` is not allowed now. */
  function move(input: Input, patch: Partial<SessionState> = {}): boolean {
    const next = transition(stage, input);
    if (!next) return false;
    stage = next;
    commit(patch);
    return true;
  }

  /** The only way out of a running session (see `endRun`). */
  function teardown(reason: EndReason, how: { terminate: boolean; error?: LiveAiError }): Promise<void> {
    return endRun(run, reason, how, { move, get, report, proxy, flow: options.flow.kind, endTimeoutMs: options.endTimeoutMs ?? 15_000 });
  }

  function onPageHide(): void {
    const r = run;
    const c = r?.client;
    if (!r || !c || isFinal(get().sessionStatus) || !move('unload', { endReason: 'unload' })) return;
    proxy.endBeacon(c.session_id, c.client_token);
    r.release();
  }

  function onStatus(res: SessionStatusResponse): void {
    const patch = { sessionStatus: res.session_status, cost: res.cost ?? get().cost };
    const status = res.session_status;
    // A final status while running goes straight to the teardown, which derives the next phase: committing it
    // first would derive a running phase from it (e.g. `active` for a queued session already in the room).
    if (stage !== 'running' || !isFinal(status)) return commit(patch);
    set(patch);
    // The service ended the session on its own.
    if (status === 'COMPLETED') void teardown('completed', { terminate: false });
    else if (status === 'TIMED_OUT')
      void teardown('timed_out', { terminate: false, error: new LiveAiError('timeout', 'the avatar service timed out (TIMED_OUT)') });
    else if (status === 'FAILED')
      void teardown('failed', {
        terminate: false,
        error: new LiveAiError('upstream_error', 'the avatar service says the session FAILED'),
      });
  }

  const handleEvent = createEventHandler({
    apply: (event) => {
      const merger = transcript.get();
      set(eventPatch(get(), event, { transcript: merger, nextId: merger ? lineId : ++lineId, maxTranscriptLines: maxLines }));
    },
    emit: (event) => {
      bus.emit(event.type, event as never);
      bus.emit('*', event);
    },
    commit,
    report,
    end: (reason, error) => void teardown(reason, error ? { terminate: true, error } : { terminate: false }),
    running: () => stage === 'running',
  });

  /** A transcription the room carries besides the service's events (rtc-a: LiveKit Agents' `lk.transcription`). */
  function onTranscription(seg: TransportEventMap['transcription']): void {
    const merger = transcript.get();
    if (!merger)
      return void transcript.load().then(
        () => onTranscription(seg),
        (e: unknown) => report(toError(e)),
      );
    const lines = merger.segment(get().transcript, seg, Date.now());
    if (lines) set({ transcript: lines });
  }

  const hooks: RunHooks = {
    status: onStatus,
    pollError(e) {
      const error = toError(e);
      if (error.code === 'not_found' && stage === 'running') void teardown('failed', { terminate: true, error });
      else report(error);
    },
    wire: (t) =>
      wireTransport(t, {
        get,
        setMedia,
        commit,
        audio,
        report,
        onEvent: handleEvent,
        onTranscription,
        onLost: (error) => void teardown('failed', { terminate: true, error }),
      }),
    left() {
      audio.attach(null);
      setMedia({ connection: 'disconnected', videoTrack: null, audioTrack: null, audioBlocked: false });
    },
    report: (e) => report(toError(e)),
  };

  const fail = (error: LiveAiError) => void teardown('failed', { terminate: true, error });
  const starter: StartDeps = {
    options,
    proxy,
    loader,
    devices: pendingDevices,
    get,
    set,
    commit,
    report,
    onPageHide,
    fail,
  };

  if (internals.clientSession) run = new Run(internals.clientSession, proxy, hooks, timing);
  if (internals.transport) (run ??= new Run(null, proxy, hooks, timing)).use(internals.transport);
  const transport = () => run?.transport ?? null;
  const { uploadImage, inlineImageMaxBytes } = options;
  const { updateImage, ...commands } = createCommands(
    { userName: () => options.userName, uploadImage, inlineImageMaxBytes, proxy, get, transport },
    () => run?.client ?? null,
  );

  const session: AvatarSession = {
    store: Object.freeze({ getState: store.getState, getInitialState: store.getInitialState, subscribe: store.subscribe }),
    on: ((type: keyof BusMap, handler: (payload: unknown) => void) => bus.on(type, handler)) as OnEvent,
    onError: (handler) => bus.on('error', handler),
    getClientSession: () => run?.client ?? null,
    start() {
      if (disposed) return Promise.reject(new LiveAiError('aborted', 'this session was disposed'));
      if (startPromise) return startPromise;
      const phase = get().phase;
      if (phase === 'active') return Promise.resolve();
      if (!transition(stage, 'start'))
        return Promise.reject(new LiveAiError('invalid_request', `cannot start while ${phase}`, { status: 400 }));
      audio.prime(); // synchronously, inside the click that called start()
      loadGuards().catch(() => undefined); // fetch the checks of the create answer while the session is being created
      run?.release();
      const r = (run = new Run(null, proxy, hooks, timing));
      lineId = 0;
      transcript.get()?.reset();
      move('start', { ...restartedState(get()), startedAt: Date.now() });
      startPromise = runStart(r, starter).finally(() => (startPromise = null));
      return startPromise;
    },
    prefetch() {
      loadGuards().catch(() => undefined);
      prefetchTransport(options, loader);
    },
    end(reason = 'user') {
      if (endPromise) return endPromise;
      if (stage !== 'running') return Promise.resolve();
      endPromise = teardown(reason, { terminate: true }).finally(() => (endPromise = null));
      return endPromise;
    },
    ...commands,
    updateImage: withImageProgress(updateImage, get, (image) => set({ image })),
    ...createMediaCommands({ get, setMedia, audio, pendingDevices, transport }),
    setKeepAlive: (on) => set({ keepAlive: on }),
    dispose({ end = true } = {}) {
      if (disposed) return;
      disposed = true;
      const done = () => {
        run?.release();
        audio.destroy();
        bus.clear();
      };
      if (end && stage === 'running')
        void session
          .end('unmount')
          .catch(() => {})
          .finally(done);
      else done();
    },
  };
  return session;
}

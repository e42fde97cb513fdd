import { DEFAULT_EVENT_TOPIC } from '../constants';
import { LiveAiError, invalidRequest, isLiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import { loadValidation } from '../lazy';
import { createProxyClient } from '../proxy-client';
import type { AvatarEvent, ClientSession, SessionStatusResponse } from '../schemas';
import { isFinalStatus } from '../schemas/plain';
import { createSessionStore, initialSessionState } from '../store/state';
import { DEFAULT_MAX_TRANSCRIPT_LINES, describeError, reduceEvent } from '../store/reducers';
import { loadTransport as defaultLoader } from '../transports/load';
import type { Transport } from '../transports/types';
import { createAudioOutput } from './audio-output';
import { createCommands, createMediaCommands } from './commands';
import { phaseOf, stageOf, transition, type Input, type Stage } from './machine';
import { chooseTransport, transportHint } from './phase';
import { aborted, Run, type RunHooks } from './run';
import type { AvatarSession, AvatarSessionOptions, EndReason, EngineInternals, OnEvent, SessionState } from './types';

type BusMap = { [K in AvatarEvent['type']]: Extract<AvatarEvent, { type: K }> } & { '*': AvatarEvent; error: LiveAiError };
const isFinal = (status: SessionStatusResponse['session_status'] | null) => status !== null && isFinalStatus(status);
const toError = (e: unknown): LiveAiError =>
  isLiveAiError(e) ? e : new LiveAiError('upstream_error', String((e as Error)?.message ?? e), { cause: e });

/**
 * Creates a session engine: the only writer of its zustand store.
 * Flows: `room` (POST {proxyUrl}/rooms), `session` (POST {proxyUrl}/sessions, JSON or multipart), `attach`.
 * Nothing touches `window`/`document` until `start()`. See `AvatarSession` for each method; errors are
 * `LiveAiError` (see `ErrorCode`), reported in `state.error` and on the `error` channel, never thrown synchronously.
 */
export function createAvatarSession(options: AvatarSessionOptions): AvatarSession {
  return createSessionEngine(options);
}

/**
 * The engine behind `createAvatarSession`, optionally seeded (stories, `liveai-kit/testing`).
 * @internal
 */
export function createSessionEngine(options: AvatarSessionOptions, internals: EngineInternals = {}): AvatarSession {
  const store = createSessionStore(internals.initialState);
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
  const timing = { intervalMs: options.pollIntervalMs ?? 1000, maxIntervalMs: Math.max(options.maxPollIntervalMs ?? 5000, options.pollIntervalMs ?? 1000) };
  const { speakerMuted: muted, volume } = get().media;
  const audio = createAudioOutput((blocked) => get().media.audioBlocked !== blocked && setMedia({ audioBlocked: blocked }), { muted, volume });

  let stage: Stage = stageOf(get().phase);
  let run: Run | null = null;
  let startPromise: Promise<void> | null = null;
  let endPromise: Promise<void> | null = null;
  let disposed = false;
  let lineId = 0;

  /** Writes `patch` with the phase derived from the stage and the facts: the only place the phase is written. */
  function commit(patch: Partial<SessionState> = {}): void {
    const s = { ...get(), ...patch };
    const c = run?.client;
    const hasRoom = c ? chooseTransport(c, options.transport) !== null : false;
    const phase = phaseOf(stage, { status: s.sessionStatus, connection: s.media.connection, hasRoom, wasActive: s.activeAt !== null });
    const now = Date.now();
    set({ ...patch, phase, queuedAt: phase === 'queued' ? (s.queuedAt ?? now) : s.queuedAt, activeAt: phase === 'active' ? (s.activeAt ?? now) : s.activeAt });
    if (phase === 'active' && run) {
      run.becameActive();
      run.startKeepAlive(options.keepAliveMs, () => get().phase === 'active' && session.resetIdleTimeout().catch((e) => report(toError(e))));
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

  /**
   * The only way out of a running session. With `error` it is a failure (phase `error` at once), else an end
   * (phase `ending`, then `ended`). Stops the start, leaves the room, ends the session at the service when
   * `terminate` and it has not ended on its own (`force-end` in a room, then the proxy's `/end`), then waits up to
   * `endTimeoutMs` for the final status and cost. Resolves when all that is done.
   */
  async function teardown(reason: EndReason, how: { terminate: boolean; error?: LiveAiError }): Promise<void> {
    const { error } = how;
    const r = run;
    if (!move(error ? 'fail' : 'end', error ? { error, endReason: reason } : { endReason: reason })) return;
    r?.cancel(error ?? aborted());
    r?.quiet();
    if (error) report(error);
    const c = r?.client;
    const final = () => isFinal(get().sessionStatus);
    let endError: LiveAiError | null = null;
    if (error) void r?.leave();
    if (r && c && how.terminate && !final() && !(error && options.flow.kind === 'attach')) {
      if (!error && options.flow.kind === 'room' && r.transport && get().media.connection === 'connected') {
        await r.transport.sendAppMessage({ event: 'force-end' }).catch(() => {});
      }
      await proxy.end(c.session_id, c.client_token).catch((e) => report((endError = toError(e))));
    }
    await r?.leave();
    if (r && c && error?.code !== 'not_found') await r.finalStatus(final, options.endTimeoutMs ?? 15_000);
    r?.poller.stop();
    if (endError && !final()) move('settleFailed', { error: endError });
    else move('settled');
  }

  function onPageHide(): void {
    const r = run;
    const c = r?.client;
    if (!r || !c || isFinal(get().sessionStatus) || !move('unload', { endReason: 'unload' })) return;
    proxy.endBeacon(c.session_id, c.client_token);
    r.release();
  }

  function onStatus(res: SessionStatusResponse): void {
    commit({ sessionStatus: res.session_status, cost: res.cost ?? get().cost });
    const status = res.session_status;
    // The service ended the session on its own.
    if (status === 'COMPLETED') void teardown('completed', { terminate: false });
    else if (status === 'TIMED_OUT') void teardown('timed_out', { terminate: false, error: new LiveAiError('timeout', 'the avatar service timed out (TIMED_OUT)') });
    else if (status === 'FAILED') void teardown('failed', { terminate: false, error: new LiveAiError('upstream_error', 'the avatar service reported the session FAILED') });
  }

  function handleEvent(event: AvatarEvent): void {
    const isLine = event.type === 'user_transcription' || event.type === 'agent_transcription';
    set(reduceEvent(get(), event, { now: Date.now(), nextId: isLine ? ++lineId : lineId, maxTranscriptLines: maxLines }));
    bus.emit(event.type, event as never);
    bus.emit('*', event);
    if (event.type === 'bot_ready') commit();
    else if (event.type === 'idle_timeout') void teardown('idle_timeout', { terminate: false });
    else if (event.type === 'video_generation_error') report(new LiveAiError('upstream_error', 'the avatar service failed to generate video'));
    else if (event.type === 'daily_error') {
      const error = new LiveAiError('transport_failed', `room provider error: ${describeError(event.error)}`);
      if (!event.fatal || stage !== 'running') report(error);
      else void teardown('failed', { terminate: true, error });
    }
  }

  const hooks: RunHooks = {
    status: onStatus,
    pollError(e) {
      const error = toError(e);
      if (error.code === 'not_found' && stage === 'running') void teardown('failed', { terminate: true, error });
      else report(error);
    },
    wire(t: Transport) {
      let previous = get().media.connection;
      return [
        t.on('event', handleEvent),
        t.on('invalidMessage', ({ error }) => report(error)),
        t.on('track', ({ kind, track }) => {
          if (kind === 'audio') audio.attach(track);
          setMedia(kind === 'audio' ? { audioTrack: track } : { videoTrack: track });
        }),
        t.on('connection', (connection) => {
          // Re-bind audio after a reconnect: users report dead audio otherwise.
          if (previous === 'reconnecting' && connection === 'connected') audio.reattach();
          previous = connection;
          commit({ media: { ...get().media, connection } });
        }),
        t.on('mic', ({ enabled }) => setMedia({ micEnabled: enabled })),
        t.on('disconnected', ({ error }) => void (error && teardown('failed', { terminate: true, error }))),
      ];
    },
    left() {
      audio.attach(null);
      setMedia({ connection: 'disconnected', videoTrack: null, audioTrack: null, audioBlocked: false });
    },
    report: (e) => report(toError(e)),
  };

  async function join(r: Run, c: ClientSession): Promise<void> {
    const kind = chooseTransport(c, options.transport);
    if (!kind || !c.room_url) return;
    const factory = await loader(kind);
    if (r.signal.aborted) return;
    const t = factory();
    r.use(t);
    const eventTopic = options.eventTopic ?? DEFAULT_EVENT_TOPIC;
    const micEnabled = options.micEnabled ?? get().media.micEnabled;
    await t.connect({ url: c.room_url, token: c.token ?? '', eventTopic, micEnabled, reconnectDeadlineMs: options.reconnectDeadlineMs, signal: r.signal });
    for (const [k, id] of pendingDevices) await t.setDevice(k, id).catch((e) => report(toError(e)));
    commit();
  }

  async function obtainClient(signal: AbortSignal): Promise<ClientSession> {
    const flow = options.flow;
    if (flow.kind === 'room') return proxy.createRoom(flow.agentId, { signal });
    if (flow.kind === 'session') return proxy.createSession(flow.request, flow.image, { signal });
    const parsed = (await loadValidation()).ClientSessionSchema.safeParse(flow.session);
    if (!parsed.success) throw invalidRequest(parsed.error);
    return parsed.data;
  }

  async function runStart(r: Run): Promise<void> {
    try {
      const c = await obtainClient(r.signal);
      if (r.signal.aborted) {
        // Created while being cancelled: end it so nobody pays for it.
        if (options.flow.kind !== 'attach') void proxy.end(c.session_id, c.client_token).catch(() => {});
        throw aborted();
      }
      r.client = c;
      const flowTransport = options.flow.kind === 'session' ? options.flow.request.transport_type : undefined;
      set({ sessionId: c.session_id, transport: flowTransport ?? c.transport ?? chooseTransport(c, options.transport), imageUrl: c.image_url ?? null });
      if (options.endOnUnload !== false) r.watchUnload(onPageHide);
      r.poller.start();
      join(r, c).catch((e) => void (r.signal.aborted || teardown('failed', { terminate: true, error: toError(e) })));
      await r.active;
    } catch (e) {
      if (r.signal.aborted) throw r.reason ?? aborted();
      const error = toError(e);
      void teardown('failed', { terminate: true, error });
      throw error;
    }
  }

  if (internals.clientSession) run = new Run(internals.clientSession, proxy, hooks, timing);
  if (internals.transport) (run ??= new Run(null, proxy, hooks, timing)).use(internals.transport);
  const transport = () => run?.transport ?? null;
  const { uploadImage, inlineImageMaxBytes } = options;
  const { updateImage, ...commands } = createCommands({ userName: () => options.userName, uploadImage, inlineImageMaxBytes, proxy, get, transport }, () => run?.client ?? null);

  const session: AvatarSession = {
    store,
    on: ((type: keyof BusMap, handler: (payload: unknown) => void) => bus.on(type, handler)) as OnEvent,
    onError: (handler) => bus.on('error', handler),
    getClientSession: () => run?.client ?? null,
    start() {
      if (disposed) return Promise.reject(new LiveAiError('aborted', 'this session was disposed'));
      if (startPromise) return startPromise;
      const phase = get().phase;
      if (phase === 'active') return Promise.resolve();
      if (!transition(stage, 'start')) return Promise.reject(new LiveAiError('invalid_request', `cannot start while ${phase}`, { status: 400 }));
      audio.prime(); // synchronously, inside the click that called start()
      loadValidation().catch(() => undefined); // fetch the zod chunk while the session is being created
      run?.release();
      const r = (run = new Run(null, proxy, hooks, timing));
      const { media } = get();
      const fresh = initialSessionState();
      lineId = 0;
      const keep = { micEnabled: media.micEnabled, speakerMuted: media.speakerMuted, volume: media.volume };
      move('start', { ...fresh, media: { ...fresh.media, ...keep }, startedAt: Date.now() });
      startPromise = runStart(r).finally(() => (startPromise = null));
      return startPromise;
    },
    prefetch() {
      loadValidation().catch(() => undefined);
      const kind = transportHint(options);
      if (kind) loader(kind).catch(() => undefined);
    },
    end(reason = 'user') {
      if (endPromise) return endPromise;
      if (stage !== 'running') return Promise.resolve();
      endPromise = teardown(reason, { terminate: true }).finally(() => (endPromise = null));
      return endPromise;
    },
    ...commands,
    async updateImage(input) {
      set({ image: { status: 'sending' } });
      try {
        await updateImage(input);
        if (get().image.status === 'sending') set({ image: { status: 'requested' } });
      } catch (e) {
        const error = toError(e);
        set({ image: { status: 'error', error: error.detail } });
        throw error;
      }
    },
    ...createMediaCommands({ get, setMedia, audio, pendingDevices, transport }),
    dispose({ end = true } = {}) {
      if (disposed) return;
      disposed = true;
      const done = () => {
        run?.release();
        audio.destroy();
        bus.clear();
      };
      if (end && stage === 'running') void session.end('unmount').catch(() => {}).finally(done);
      else done();
    },
  };
  return session;
}

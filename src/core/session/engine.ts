import { DEFAULT_EVENT_TOPIC } from '../constants';
import { LiveAiError, invalidRequest, isLiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import { createKeepAlive, type KeepAlive } from '../keepalive';
import { loadValidation } from '../lazy';
import { createProxyClient } from '../proxy-client';
import type { AvatarEvent, ClientSession, SessionStatusResponse } from '../schemas';
import { isFinalStatus } from '../schemas/plain';
import { createSessionStore, initialSessionState } from '../store/state';
import { DEFAULT_MAX_TRANSCRIPT_LINES, describeError, reduceEvent } from '../store/reducers';
import { TranscriptMerger } from './transcript-merge';
import { loadTransport as defaultLoader } from '../transports/load';
import type { Transport } from '../transports/types';
import { createAudioOutput } from './audio-output';
import { createCommands, createMediaCommands, type CommandContext } from './commands';
import { chooseTransport, derivePhase, isRunning, transportHint } from './phase';
import { createStatusPoller } from './poller';
import type { AvatarSession, AvatarSessionOptions, EndReason, EngineInternals, MediaState, OnEvent, SessionState } from './types';

type BusMap = { [K in AvatarEvent['type']]: Extract<AvatarEvent, { type: K }> } & { '*': AvatarEvent; error: LiveAiError };
const aborted = () => new LiveAiError('aborted', 'the start was cancelled (end() or dispose() was called)');

/**
 * Creates a session engine: the only writer of its zustand store.
 * Flows: `room` (POST {proxyUrl}/rooms), `session` (POST {proxyUrl}/sessions, JSON or multipart), `attach`.
 * Nothing touches `window`/`document` until `start()`. See `AvatarSession` for each method; errors are
 * `LiveAiError` (codes in errors.ts), reported in `state.error` and on the `error` channel, never thrown synchronously.
 */
export function createAvatarSession(options: AvatarSessionOptions, internals: EngineInternals = {}): AvatarSession {
  const store = createSessionStore(internals.initialState);
  const get = store.getState;
  const set = (patch: Partial<SessionState>) => store.setState(patch);
  const setMedia = (patch: Partial<MediaState>) => set({ media: { ...get().media, ...patch } });
  const bus = createEventBus<BusMap>((error, name) => {
    if (name !== 'error') report(new LiveAiError('invalid_request', `an event handler threw: ${String(error)}`, { cause: error }));
  });
  const proxy = createProxyClient({ proxyUrl: options.proxyUrl, fetch: options.fetch, timeoutMs: options.requestTimeoutMs });
  const loader = options.loadTransport ?? defaultLoader;
  const maxLines = options.maxTranscriptLines ?? DEFAULT_MAX_TRANSCRIPT_LINES;
  const pendingDevices = new Map<'audioinput' | 'videoinput', string>();

  let client: ClientSession | null = internals.clientSession ?? null;
  let transport: Transport | null = null;
  let transportOff: (() => void)[] = [];
  let startPromise: Promise<void> | null = null;
  let endPromise: Promise<void> | null = null;
  let abort: AbortController | null = null;
  let activeWaiter: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  let finalWaiters: (() => void)[] = [];
  let disposed = false;
  let lineId = 0;
  const transcript = new TranscriptMerger(() => ++lineId, maxLines);
  let removeUnload: (() => void) | null = null;
  let keepAlive: KeepAlive | null = null;

  const report = (error: LiveAiError) => bus.emit('error', error);
  const audio = createAudioOutput((blocked) => get().media.audioBlocked !== blocked && setMedia({ audioBlocked: blocked }), {
    muted: get().media.speakerMuted,
    volume: get().media.volume,
  });

  const poller = createStatusPoller({
    fetchStatus: (signal) => proxy.getSession(client!.session_id, client!.client_token, { signal }),
    onStatus,
    onError: (e) => {
      const error = toError(e);
      report(error);
      if (error.code === 'not_found' && isRunning(get().phase)) void fail(error, 'failed');
    },
    intervalMs: options.pollIntervalMs ?? 1000,
    maxIntervalMs: Math.max(options.maxPollIntervalMs ?? 5000, options.pollIntervalMs ?? 1000),
  });

  function toError(e: unknown): LiveAiError {
    return isLiveAiError(e) ? e : new LiveAiError('upstream_error', String((e as Error)?.message ?? e), { cause: e });
  }

  /** Re-derives the phase while the session runs; resolves `start()` once active. */
  function sync() {
    const s = get();
    if (!isRunning(s.phase) || !client) return;
    const phase = derivePhase({
      status: s.sessionStatus,
      connection: s.media.connection,
      hasRoom: chooseTransport(client, options.transport) !== null,
      wasActive: s.activeAt !== null,
    });
    if (phase === s.phase) return;
    const now = Date.now();
    set({ phase, queuedAt: phase === 'queued' ? (s.queuedAt ?? now) : s.queuedAt, activeAt: phase === 'active' ? (s.activeAt ?? now) : s.activeAt });
    if (phase === 'active') {
      activeWaiter?.resolve();
      startKeepAlive();
    }
  }

  function onStatus(res: SessionStatusResponse) {
    const s = get();
    set({ sessionStatus: res.session_status, cost: res.cost ?? s.cost });
    if (!isFinalStatus(res.session_status)) return sync();
    const waiters = finalWaiters;
    finalWaiters = [];
    waiters.forEach((w) => w());
    if (!isRunning(s.phase)) return;
    // The service ended the session on its own.
    if (res.session_status === 'COMPLETED') void finish('completed', { terminate: false });
    else if (res.session_status === 'TIMED_OUT') void fail(new LiveAiError('timeout', 'the avatar service timed out (TIMED_OUT)'), 'timed_out');
    else void fail(new LiveAiError('upstream_error', 'the avatar service reported the session FAILED'), 'failed');
  }

  function startKeepAlive() {
    if (!options.keepAliveMs || keepAlive) return;
    keepAlive = createKeepAlive({
      intervalMs: options.keepAliveMs,
      send: () => {
        if (get().phase === 'active') session.resetIdleTimeout().catch((e) => report(toError(e)));
      },
    });
    keepAlive.start();
  }

  function installUnload() {
    if (options.endOnUnload === false || removeUnload || typeof window === 'undefined') return;
    const onPageHide = () => {
      const c = client;
      const s = get();
      if (!c || (s.sessionStatus && isFinalStatus(s.sessionStatus)) || s.phase === 'ended' || s.phase === 'idle') return;
      proxy.endBeacon(c.session_id, c.client_token);
      abort?.abort();
      cleanup();
      set({ phase: 'ended', endReason: 'unload' });
      activeWaiter?.reject(aborted());
    };
    window.addEventListener('pagehide', onPageHide);
    removeUnload = () => window.removeEventListener('pagehide', onPageHide);
  }

  /** Stops timers and listeners and leaves the room (does not end the session). */
  function cleanup() {
    poller.stop();
    keepAlive?.stop();
    keepAlive = null;
    removeUnload?.();
    removeUnload = null;
    void disconnect();
  }

  async function disconnect() {
    const t = transport;
    transport = null;
    if (!t) return;
    try {
      await t.disconnect();
    } catch (e) {
      report(toError(e));
    }
    transportOff.forEach((off) => off());
    transportOff = [];
    audio.attach(null);
    setMedia({ connection: 'disconnected', videoTrack: null, audioTrack: null, audioBlocked: false });
  }

  function wire(t: Transport) {
    transport = t;
    let previous = get().media.connection;
    transportOff = [
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
        setMedia({ connection });
        sync();
      }),
      t.on('mic', ({ enabled }) => setMedia({ micEnabled: enabled })),
      t.on('transcription', (seg) => {
        const lines = transcript.segment(get().transcript, seg, Date.now());
        if (lines) set({ transcript: lines });
      }),
      t.on('disconnected', ({ error }) => {
        if (error && transport === t) void fail(error, 'failed');
      }),
    ];
  }

  function handleEvent(event: AvatarEvent) {
    const s = get();
    const patch = reduceEvent(s, event, { now: Date.now(), nextId: lineId, maxTranscriptLines: maxLines });
    if (event.type === 'user_transcription' || event.type === 'agent_transcription') {
      const lines = transcript.service(s.transcript, event.type === 'user_transcription' ? 'user' : 'agent', event.transcription, Date.now());
      if (lines) patch.transcript = lines;
      else delete patch.transcript;
    }
    set(patch);
    bus.emit(event.type, event as never);
    bus.emit('*', event);
    switch (event.type) {
      case 'bot_ready':
        return sync();
      case 'idle_timeout':
        if (isRunning(get().phase)) void finish('idle_timeout', { terminate: false });
        return;
      case 'daily_error': {
        const error = new LiveAiError('transport_failed', `room provider error: ${describeError(event.error)}`);
        if (event.fatal && isRunning(get().phase)) void fail(error, 'failed');
        else report(error);
        return;
      }
      case 'video_generation_error':
        return report(new LiveAiError('upstream_error', 'the avatar service failed to generate video'));
    }
  }

  async function join(c: ClientSession, signal: AbortSignal) {
    const kind = chooseTransport(c, options.transport);
    if (!kind || !c.room_url) return;
    const factory = await loader(kind);
    if (signal.aborted) return;
    const t = factory();
    wire(t);
    await t.connect({
      url: c.room_url,
      token: c.token ?? '',
      eventTopic: options.eventTopic ?? DEFAULT_EVENT_TOPIC,
      micEnabled: options.micEnabled ?? get().media.micEnabled,
      reconnectDeadlineMs: options.reconnectDeadlineMs,
      signal,
    });
    for (const [k, id] of pendingDevices) await t.setDevice(k, id).catch((e) => report(toError(e)));
    sync();
  }

  async function obtainClient(signal: AbortSignal): Promise<ClientSession> {
    const flow = options.flow;
    if (flow.kind === 'room') return proxy.createRoom(flow.agentId, { signal });
    if (flow.kind === 'session') return proxy.createSession(flow.request, flow.image, { signal });
    const parsed = (await loadValidation()).ClientSessionSchema.safeParse(flow.session);
    if (!parsed.success) throw invalidRequest(parsed.error);
    return parsed.data;
  }

  async function run(): Promise<void> {
    const m = get().media;
    const fresh = initialSessionState();
    lineId = 0;
    transcript.reset();
    set({
      ...fresh,
      media: { ...fresh.media, micEnabled: m.micEnabled, speakerMuted: m.speakerMuted, volume: m.volume },
      phase: 'creating',
      startedAt: Date.now(),
    });
    client = null;
    const controller = (abort = new AbortController());
    const signal = controller.signal;
    const active = new Promise<void>((resolve, reject) => (activeWaiter = { resolve, reject }));
    active.catch(() => {});
    try {
      const c = await obtainClient(signal);
      if (signal.aborted) {
        // Created while being cancelled: end it so nobody pays for it.
        if (options.flow.kind !== 'attach') void proxy.end(c.session_id, c.client_token).catch(() => {});
        throw aborted();
      }
      client = c;
      const flowTransport = options.flow.kind === 'session' ? options.flow.request.transport_type : undefined;
      set({ sessionId: c.session_id, transport: flowTransport ?? c.transport ?? chooseTransport(c, options.transport), imageUrl: c.image_url ?? null });
      installUnload();
      poller.start();
      join(c, signal).catch((e) => {
        if (!signal.aborted) void fail(toError(e), 'failed');
      });
      await active;
    } catch (e) {
      const s = get();
      if (s.phase === 'error' && s.error) throw s.error;
      if (signal.aborted) throw aborted();
      const error = toError(e);
      await fail(error, 'failed');
      throw error;
    } finally {
      activeWaiter = null;
    }
  }

  /** Ends with an error: phase `error`, terminate what was created (best effort), reject `start()`. */
  async function fail(error: LiveAiError, reason: EndReason) {
    if (!isRunning(get().phase)) return;
    const c = client;
    const status = get().sessionStatus;
    set({ phase: 'error', error, endReason: reason });
    abort?.abort();
    cleanup();
    activeWaiter?.reject(error);
    report(error);
    if (c && options.flow.kind !== 'attach' && !(status && isFinalStatus(status))) {
      await proxy.end(c.session_id, c.client_token).catch((e) => report(toError(e)));
    }
  }

  /** Ends normally: force-end / terminate, leave, wait (bounded) for the final status and cost. */
  async function finish(reason: EndReason, { terminate }: { terminate: boolean }) {
    const s = get();
    const c = client;
    set({ phase: 'ending', endReason: reason });
    abort?.abort();
    activeWaiter?.reject(aborted());
    keepAlive?.stop();
    keepAlive = null;
    removeUnload?.();
    removeUnload = null;
    let endError: LiveAiError | null = null;
    const final = () => {
      const st = get().sessionStatus;
      return st !== null && isFinalStatus(st);
    };
    if (c && terminate && !final()) {
      if (options.flow.kind === 'room' && transport && s.media.connection === 'connected') {
        await transport.sendAppMessage({ event: 'force-end' }).catch(() => {});
      }
      await proxy.end(c.session_id, c.client_token).catch((e) => {
        endError = toError(e);
        report(endError);
      });
    }
    await disconnect();
    if (c && !final()) {
      const reached = new Promise<void>((resolve) => finalWaiters.push(resolve));
      const limit = new Promise<void>((resolve) => setTimeout(resolve, options.endTimeoutMs ?? 15_000));
      poller.hurry();
      await Promise.race([reached, limit]);
    }
    poller.stop();
    const failed = endError !== null && !final();
    set({ phase: failed ? 'error' : 'ended', error: failed ? endError : get().error });
  }

  const commandContext: CommandContext = {
    userName: () => options.userName,
    uploadImage: options.uploadImage,
    inlineImageMaxBytes: options.inlineImageMaxBytes,
    proxy,
    audio,
    get,
    set,
    setMedia,
    transport: () => transport,
    pendingDevices,
    toError,
  };

  if (internals.transport) {
    wire(internals.transport);
  }

  const session: AvatarSession = {
    store,
    on: ((type: keyof BusMap, handler: (payload: unknown) => void) => bus.on(type, handler)) as OnEvent,
    onError: (handler) => bus.on('error', handler),
    getClientSession: () => client,
    start() {
      if (disposed) return Promise.reject(new LiveAiError('aborted', 'this session was disposed'));
      if (startPromise) return startPromise;
      const phase = get().phase;
      if (phase === 'active') return Promise.resolve();
      if (phase === 'ending' || isRunning(phase)) {
        return Promise.reject(new LiveAiError('invalid_request', `cannot start while ${phase}`, { status: 400 }));
      }
      audio.prime(); // synchronously, inside the click that called start()
      loadValidation().catch(() => undefined); // fetch the zod chunk while the session is being created
      startPromise = run().finally(() => {
        startPromise = null;
      });
      return startPromise;
    },
    prefetch() {
      loadValidation().catch(() => undefined);
      const kind = transportHint(options);
      if (kind) loader(kind).catch(() => undefined);
    },
    end(reason = 'user') {
      if (endPromise) return endPromise;
      const phase = get().phase;
      if (!isRunning(phase)) return Promise.resolve();
      endPromise = finish(reason, { terminate: true }).finally(() => {
        endPromise = null;
      });
      return endPromise;
    },
    ...createCommands(commandContext, () => client),
    ...createMediaCommands(commandContext),
    dispose({ end = true } = {}) {
      if (disposed) return;
      disposed = true;
      const done = () => {
        cleanup();
        audio.destroy();
        bus.clear();
      };
      if (end && isRunning(get().phase)) void session.end('unmount').catch(() => {}).finally(done);
      else {
        abort?.abort();
        activeWaiter?.reject(aborted());
        done();
      }
    },
  };
  return session;
}

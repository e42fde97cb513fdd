import { deviceError, isDefaultDevice, type DeviceKind } from './devices';
import { LiveAiError, hasWebRtc, invalidRequest, noWebRtc } from '../errors';
import { check, lazyTranscriptMerger, loadCallSchemas, loadOnce } from '../lazy';
import { createProxyClient, type ProxyClient } from '../proxy-client';
import type { AvatarEvent, ClientSession, SessionStatusResponse } from '../schemas';
import { isFinalStatus } from '../schemas/plain';
import { chooseTransport, loadTransport as defaultLoader } from '../transports/choose';

import type { CallStats, ConnectionState, TransportEventMap, TransportLoader } from '../transports/types';
import type { AgentSignal } from './agent-state';
import type { AudioOutput } from './audio-output';
import { Call, aborted, toError } from './call';
import { CaptionPacer } from './captions';
import { createHost, sessionObject, type SessionHost } from './create';
import { DEFAULT_MAX_TRANSCRIPT_LINES } from './store';
import {
  describeError,
  nextImageState,
  phaseOf,
  reduceEvent,
  restartedState,
  stageOf,
  transition,
  type ImageStep,
  type Input,
  type Stage,
} from './state';
import type { AvatarSession, AvatarSessionOptions, EndReason, ImageInput, MediaState, SessionState, SessionStatePatch } from './types';

/**
 * Where the session is in its life, with what belongs to that stage: the current call, the pending start, the
 * pending end. One value, so the three can never disagree.
 */
type Life =
  | { stage: 'idle'; call: null }
  | { stage: 'running'; call: Call; starting: Promise<void> | null }
  | { stage: 'ending'; call: Call; ending: Promise<void> }
  | { stage: 'ended' | 'failed'; call: Call | null };

/** How a running session is left (see `SessionEngine.teardown`). */
interface Exit {
  reason: EndReason;
  /** End the session at the service (`force-end` in rooms, then the proxy's `/end`). */
  terminate: boolean;
  /** A failure: phase `error` at once. */
  error?: LiveAiError;
  /**
   * Leave at once, without waiting for anything (`dispose()`): with `terminate` the end request goes out and is not
   * waited for; without, the session goes on at the service (`dispose({ end: false })`).
   */
  detach?: boolean;
  /** Facts written with the move out of running (the final status that ended it), so no write shows them in a running phase. */
  patch?: SessionStatePatch;
}

const isFinal = (status: SessionState['sessionStatus']) => status !== null && isFinalStatus(status);

/**
 * Whether a start of this flow joins a room for sure (so needs WebRTC): a hosted room, an `rtc-a` / `rtc-b`
 * session, an attached session with a room. A WebSocket session may have no room; its adapter checks on joining.
 */
const joinsRoom = (flow: AvatarSessionOptions['flow']): boolean =>
  flow.kind === 'room' || (flow.kind === 'session' ? !flow.request.transport_type.startsWith('websocket') : !!flow.session.room_url);

/**
 * Seeds of a session, for `liveai-kit/testing` (`createTestSession`) and stories: the store and optionally an
 * already created session and a connected transport (no polling starts for it).
 * @internal
 */
export interface SessionSeed {
  initialState?: SessionStatePatch;
  clientSession?: ClientSession;
  transport?: import('../transports/types').Transport;
}

/**
 * The session engine, loaded on demand (see `sessionObject`): the state machine and the current call, over the
 * store, event channels and audio output of its host. The only writer of the session's facts but the user's audio
 * and keep-alive choices (the host's): the service's status (its status answers), the media (what the transport
 * reports), the events' effects, the phase (derived from those in `commit`), the error and end reason (the teardown).
 */
export class SessionEngine {
  private readonly store: SessionHost['store'];
  private readonly bus: SessionHost['bus'];
  private readonly proxy: ProxyClient;
  private readonly loader: TransportLoader;
  private readonly audio: AudioOutput;
  private readonly maxLines: number;
  private readonly timing: { intervalMs: number; maxIntervalMs: number };
  /** Devices chosen before joining; applied when the room is joined. */
  private readonly devices = new Map<'audioinput' | 'videoinput', string>();
  private readonly controls = loadOnce(() => import('./control-commands'));
  /** The agent state's rules load with the first signal of a call (the room's first speaker, transcription, …). */
  private readonly agentRules = loadOnce(() => import('./agent-state'));
  private rules: typeof import('./agent-state') | null = null;
  private life: Life = { stage: 'idle', call: null };
  private disposed = false;
  /** Set once `dispose()` returned: nothing writes the store any more, and no call reports to this session. */
  private closed = false;
  private lineId = 0;
  /** The transcript merger loads when the room first sends a transcription of its own. */
  private readonly transcript: ReturnType<typeof lazyTranscriptMerger>;
  /** Reveals agent lines as the avatar speaks them (`spoken`); null with `pacedCaptions: false`. */
  private readonly captions: CaptionPacer | null;

  constructor(
    private readonly options: AvatarSessionOptions,
    host: SessionHost,
    seed: Omit<SessionSeed, 'initialState'> = {},
  ) {
    this.store = host.store;
    this.bus = host.bus;
    this.audio = host.audio;
    this.proxy = createProxyClient({ proxyUrl: options.proxyUrl, fetch: options.fetch, timeoutMs: options.requestTimeoutMs });
    this.loader = options.loadTransport ?? options.transports?.load ?? defaultLoader;
    this.maxLines = options.maxTranscriptLines ?? DEFAULT_MAX_TRANSCRIPT_LINES;
    this.transcript = lazyTranscriptMerger(
      () => ++this.lineId,
      this.maxLines,
      () => this.state.transcript,
    );
    this.captions =
      options.pacedCaptions === false
        ? null
        : new CaptionPacer({ lines: () => this.state.transcript, write: (transcript) => this.set({ transcript }) });
    const intervalMs = options.pollIntervalMs ?? 1000;
    this.timing = { intervalMs, maxIntervalMs: Math.max(options.maxPollIntervalMs ?? 5000, intervalMs) };
    const stage = stageOf(this.state.phase);
    let call = seed.clientSession || seed.transport ? new Call(this, this.proxy, seed.clientSession ?? null, this.timing) : null;
    if (stage === 'running' || stage === 'ending') call ??= new Call(this, this.proxy, null, this.timing);
    if (stage === 'running') this.life = { stage, call: call!, starting: null };
    else if (stage === 'ending') this.life = { stage, call: call!, ending: Promise.resolve() };
    else if (stage !== 'idle') this.life = { stage, call };
    if (seed.transport) call?.use(seed.transport);
  }

  private get state(): Readonly<SessionState> {
    return this.store.getState();
  }

  /**
   * Every write of the engine: `commit` and `move` keep each phase's fields consistent (see `SessionState`). Only
   * the fields that change are written, and a patch that changes nothing notifies no subscriber: every notification
   * runs every selector of every component that reads the store.
   */
  private set(patch: SessionStatePatch): void {
    if (this.closed) return;
    const state = this.state as unknown as Record<string, unknown>;
    const changed = Object.entries(patch).filter(([k, v]) => !Object.is(state[k], v));
    if (changed.length) this.store.setState(Object.fromEntries(changed) as Partial<SessionState>);
  }

  private setMedia(patch: Partial<MediaState>): void {
    this.set({ media: { ...this.state.media, ...patch } });
  }

  /** Whether the avatar is live: its video arrived, or `bot_ready`. */
  get live(): boolean {
    return this.state.live;
  }

  /**
   * The only writer of `live` (the avatar is live in the room), which two signals tell: its `bot_ready` event and its
   * video track arriving (a page that joins after the avatar never gets `bot_ready`). Reset by `start()`.
   */
  private avatarLive(): SessionStatePatch {
    return this.state.live ? {} : { live: true };
  }

  /**
   * The only writer of `image`: `updateImage()`'s own steps and the service's `image_change_*` events, through one
   * rule (`nextImageState`). Reset by `start()`.
   */
  private imageStep(step: ImageStep): SessionStatePatch {
    const image = nextImageState(this.state.image, step);
    return image ? { image } : {};
  }

  /** Whether `call` is the current call (calls of earlier starts report nothing). */
  isCurrent(call: Call): boolean {
    return !this.closed && this.life.call === call;
  }

  report(error: LiveAiError): void {
    this.bus.emit('error', error);
  }

  /** Writes `patch` with the phase derived from the stage and the facts: the only place the phase is written. */
  private commit(patch: SessionStatePatch = {}): void {
    const s = { ...this.state, ...patch };
    const call = this.life.call;
    const video = s.media.videoTrack;
    const phase = phaseOf(this.life.stage, {
      status: s.sessionStatus,
      connection: s.media.connection,
      hasRoom: call?.client ? chooseTransport(call.client, this.options.transport) !== null : false,
      wasActive: s.activeAt !== null,
      live: s.live,
      videoFlowing: !!video && !video.muted,
    });
    const now = Date.now();
    this.set({
      ...patch,
      phase,
      queuedAt: phase === 'queued' ? (s.queuedAt ?? now) : s.queuedAt,
      activeAt: phase === 'active' ? (s.activeAt ?? now) : s.activeAt,
    });
    if (phase === 'active' && this.life.stage === 'running') {
      const call = this.life.call;
      call.becameActive();
      // One keep-alive per active call; it sends only while `keepAlive` is on (setKeepAlive).
      call.keepAliveEvery(this.options.keepAliveMs || 30_000, () => {
        if (this.state.keepAlive && this.state.phase === 'active') this.resetIdleTimeout().catch((e: unknown) => this.report(toError(e)));
      });
    }
  }

  /** Moves the machine along one edge of its table; false (and nothing written) when `input` is not allowed now. */
  private move(input: Input, next: (stage: Stage) => Life, patch: SessionStatePatch = {}): boolean {
    const stage = transition(this.life.stage, input);
    if (!stage) return false;
    this.life = next(stage);
    this.commit(patch);
    return true;
  }

  // ---- start and the ways out ------------------------------------------------------------------------------

  start(): Promise<void> {
    if (this.disposed) return Promise.reject(new LiveAiError('aborted', 'this session was disposed'));
    const life = this.life;
    if (life.stage === 'running' && life.starting) return life.starting;
    const phase = this.state.phase;
    if (phase === 'active') return Promise.resolve();
    if (!transition(life.stage, 'start'))
      return Promise.reject(new LiveAiError('invalid_request', `cannot start while ${phase}`, { status: 400 }));
    this.audio.attach(null); // the last call's audio is over (and with it a blocked autoplay)
    this.audio.prime(); // synchronously, inside the click that called start()
    loadCallSchemas().catch(() => undefined); // fetch the checks of the create answer while the session is being created
    life.call?.dispose();
    const call = new Call(this, this.proxy, null, this.timing);
    this.lineId = 0;
    this.transcript.get()?.reset();
    this.captions?.reset();
    const starting = this.run(call).finally(() => {
      if (this.life.stage === 'running' && this.life.call === call) this.life = { ...this.life, starting: null };
    });
    this.move('start', (stage) => ({ stage, call, starting }) as Life, { ...restartedState(this.state), startedAt: Date.now() });
    return starting;
  }

  /**
   * One start: obtains the session handle (create through the proxy, or check the attached one), joins the room
   * (polling starts once the join settled), and resolves once the session is active. Rejects with the error that
   * failed it, or `aborted` when it was ended or disposed meanwhile.
   */
  private async run(call: Call): Promise<void> {
    await Promise.resolve(); // the stage moves to running first
    const o = this.options;
    try {
      // No WebRTC, no call: fail before a session is created (and paid for). A custom loader may need none.
      if (!o.loadTransport && joinsRoom(o.flow) && !hasWebRtc()) throw noWebRtc();
      const c = await call.obtain(o.flow);
      const requested = o.flow.kind === 'session' ? o.flow.request.transport_type : undefined;
      this.set({
        sessionId: c.session_id,
        transport: requested ?? c.transport ?? chooseTransport(c, o.transport),
        imageUrl: c.image_url ?? null,
      });
      if (o.endOnUnload !== false) call.watchUnload(() => this.unload());
      const joined = call.join({
        ...o,
        loader: this.loader,
        micEnabled: o.micEnabled ?? this.state.media.micEnabled,
        devices: this.devices,
      });
      joined.then(
        () => this.isCurrent(call) && this.commit(),
        (e: unknown) => call.signal.aborted || this.fail(toError(e)),
      );
      await call.active;
    } catch (e) {
      if (call.signal.aborted) throw call.reason ?? aborted();
      const error = toError(e);
      this.fail(error);
      throw error;
    }
  }

  end(reason: EndReason = 'user'): Promise<void> {
    if (this.life.stage === 'ending') return this.life.ending;
    return this.teardown({ reason, terminate: true });
  }

  /** A failure: `out_of_credits` when the service refused the call for want of credits (402), else `reason`. */
  private fail(error: LiveAiError, reason: EndReason = 'failed'): void {
    if (error.code === 'insufficient_funds') reason = 'out_of_credits';
    void this.teardown({ reason, terminate: true, error });
  }

  /** The page is going away: the end beacon goes out and the call is freed at once (no waiting in `pagehide`). */
  private unload(): void {
    const call = this.life.call;
    const c = call?.client;
    if (!call || !c || isFinal(this.state.sessionStatus)) return;
    void this.teardown({ reason: 'unload', terminate: true });
  }

  /**
   * The one way out of a running session: end, failure, page unload, dispose and a restart all come here. With
   * `error` it is a failure (phase `error` at once), `unload` ends at once with the end beacon, `detach` leaves at
   * once (`dispose()`: the end request, if `terminate`, is not waited for), else it is an end
   * (phase `ending`, then `ended`). Stops the start, leaves the room, ends the session at the service when
   * `terminate` and it has not ended on its own (`force-end` in a room, then the proxy's `/end`; an attached
   * session that failed is left to its owner), waits up to `endTimeoutMs` for the final status and cost (so the
   * status shown is the service's, e.g. `COMPLETED` after a failed join), then frees the call. Nothing happens when
   * the machine does not allow the move (already ending or over).
   */
  private teardown(exit: Exit): Promise<void> {
    const life = this.life;
    if (life.stage !== 'running') return Promise.resolve();
    const call = life.call;
    const { error, reason } = exit;
    if (reason === 'unload' || exit.detach) {
      this.move('unload', (stage) => ({ stage, call }) as Life, { endReason: reason });
      const c = call.client;
      if (exit.terminate && c && reason === 'unload') this.proxy.endBeacon(c.session_id, c.client_token);
      else if (exit.terminate && c) void this.proxy.end(c.session_id, c.client_token).catch(() => {});
      call.dispose();
      return Promise.resolve();
    }
    const next = (stage: Stage): Life => (stage === 'ending' ? { stage, call, ending } : { stage: stage as 'ended', call });
    const ending: Promise<void> = (async () => {
      await Promise.resolve();
      call.cancel(error ?? aborted());
      if (error) this.report(error);
      const c = call.client;
      const final = () => isFinal(this.state.sessionStatus);
      const flow = this.options.flow.kind;
      let endError: LiveAiError | null = null;
      if (error) void call.leave();
      if (c && exit.terminate && !final() && !(error && flow === 'attach')) {
        if (!error && flow === 'room' && call.transport && this.state.media.connection === 'connected') {
          await call.transport.sendAppMessage({ event: 'force-end' }).catch(() => {});
        }
        await this.proxy.end(c.session_id, c.client_token).catch((e: unknown) => this.report((endError = toError(e))));
      }
      await call.leave();
      if (c && error?.code !== 'not_found') await call.finalStatus(final, this.options.endTimeoutMs ?? 15_000);
      call.dispose();
      if (endError && !final()) this.move('settleFailed', next, { error: endError });
      else this.move('settled', next);
    })();
    this.move(error ? 'fail' : 'end', next, { ...exit.patch, ...(error ? { error, endReason: reason } : { endReason: reason }) });
    return ending;
  }

  /**
   * Frees the session for good: the start is cancelled, the room left, polling and keep-alive stopped, the event
   * channels cleared, and from then on nothing writes the store. With `end` (the default) a running session is
   * ended at the service: its `/end` goes out (the one request after `dispose()`), without waiting for the final
   * status. The store shows phase `ended` (`endReason` `unmount`) at once; a session already ending keeps the
   * reason it was ended with and shows `ended` too: its `/end` in flight completes, nothing else is asked.
   */
  dispose({ end = true }: { end?: boolean } = {}): void {
    if (this.disposed) return;
    this.disposed = true;
    const life = this.life;
    if (life.stage === 'running') void this.teardown({ reason: 'unmount', terminate: end, detach: true });
    else if (life.stage === 'ending') this.move('settled', (stage) => ({ stage, call: life.call }) as Life);
    this.life.call?.dispose();
    this.captions?.dispose();
    this.audio.destroy();
    this.bus.clear();
    this.closed = true;
  }

  // ---- what the service and the room report (through the current call) ---------------------------------------

  /** A status answer: the only writer of `sessionStatus` and `cost`. A final status while running ends the session. */
  onStatus(res: SessionStatusResponse & { end_reason?: string }): void {
    const status = res.session_status;
    const patch = { sessionStatus: status, cost: res.cost ?? this.state.cost };
    // A final status while running goes straight to the teardown, which writes it with the next phase: committing
    // it first would derive a running phase from it (e.g. `active` for a queued session already in the room).
    if (this.life.stage !== 'running' || !isFinal(status)) return this.commit(patch);
    // The proxy ended it at its maximum length (`end_reason`): say so, not just "completed".
    if (status === 'COMPLETED')
      void this.teardown({ reason: res.end_reason === 'max_duration' ? 'max_duration' : 'completed', terminate: false, patch });
    else if (status === 'TIMED_OUT')
      void this.teardown({
        reason: 'timed_out',
        terminate: false,
        error: new LiveAiError('timeout', 'the avatar service timed out (TIMED_OUT)'),
        patch,
      });
    else
      void this.teardown({
        reason: 'failed',
        terminate: false,
        error: new LiveAiError('upstream_error', 'the avatar service says the session FAILED'),
        patch,
      });
  }

  onPollError(error: LiveAiError): void {
    if (error.code === 'not_found' && this.life.stage === 'running') this.fail(error);
    else this.report(error);
  }

  /**
   * One service event: store first, then subscribers; `bot_ready` makes the avatar live, `idle_timeout` ends the
   * session, a fatal `daily_error` fails it, `video_generation_error` and non-fatal room errors are reported.
   */
  onEvent(event: AvatarEvent): void {
    const merger = this.transcript.get();
    const now = Date.now();
    const patch = reduceEvent(this.state, event, { now, nextId: merger ? this.lineId : ++this.lineId, maxTranscriptLines: this.maxLines });
    if (merger && (event.type === 'user_transcription' || event.type === 'agent_transcription')) {
      const role = event.type === 'user_transcription' ? 'user' : 'agent';
      const lines = merger.service(this.state.transcript, role, event.transcription, now);
      if (lines) patch.transcript = lines;
      else delete patch.transcript;
    }
    if (patch.transcript && this.captions) patch.transcript = this.captions.prepare(patch.transcript);
    const image = this.imageStep(event);
    if (event.type === 'bot_ready') this.commit({ ...patch, ...this.avatarLive() });
    else this.set({ ...patch, ...image });
    if (event.type === 'user_transcription') this.onAgentSignal({ kind: 'user', final: true });
    this.bus.emit(event.type, event as never);
    this.bus.emit('*', event);
    if (event.type === 'idle_timeout') void this.teardown({ reason: 'idle_timeout', terminate: false });
    else if (event.type === 'video_generation_error')
      this.report(new LiveAiError('upstream_error', 'the avatar service failed to generate video'));
    else if (event.type === 'daily_error') {
      const error = new LiveAiError('transport_failed', `room provider error: ${describeError(event.error)}`);
      if (event.fatal && this.life.stage === 'running') this.fail(error);
      else this.report(error);
    }
  }

  /** The avatar's track of a kind appeared (or went away). Its audio plays through the session's one audio output. */
  onTrack(kind: 'audio' | 'video', track: MediaStreamTrack | null): void {
    if (kind === 'audio') {
      this.audio.attach(track);
      return this.setMedia({ audioTrack: track });
    }
    // The avatar publishes its video only once it is live, so its track tells that as `bot_ready` does (which a page
    // that joins after the avatar never receives). A track that comes while the room is joining is muted until its
    // first packets arrive: the phase is derived again then.
    this.commit({ media: { ...this.state.media, videoTrack: track }, ...(track ? this.avatarLive() : {}) });
    if (track?.muted) track.addEventListener('unmute', () => this.state.media.videoTrack === track && this.commit(), { once: true });
  }

  /**
   * The room's connection state: the only writer of `media.connection` (leaving the room comes here too). `media`
   * is what else changes with it (the tracks a left room takes away).
   */
  onConnection(connection: ConnectionState, media: Partial<MediaState> = {}): void {
    // Re-bind audio after a reconnect: users report dead audio otherwise.
    if (this.state.media.connection === 'reconnecting' && connection === 'connected') this.audio.reattach();
    this.commit({ media: { ...this.state.media, ...media, connection } });
  }

  onMic(enabled: boolean): void {
    this.setMedia({ micEnabled: enabled });
  }

  /** A transcription the room carries besides the service's events (LiveKit Agents' `lk.transcription`). */
  onTranscription(seg: TransportEventMap['transcription']): void {
    const merger = this.transcript.get();
    if (!merger)
      return void this.transcript.load().then(
        () => this.onTranscription(seg),
        (e: unknown) => this.report(toError(e)),
      );
    const lines = merger.segment(this.state.transcript, seg, Date.now());
    if (lines) this.set({ transcript: this.captions?.prepare(lines) ?? lines });
    if (seg.role === 'user') this.onAgentSignal({ kind: 'user', final: seg.final });
  }

  /**
   * The only writer of `agentState`: what the agent publishes, or what the room tells of the turns. Signals that
   * come while the rules load are applied in their order, with their own time.
   */
  onAgentSignal(signal: AgentSignal, at = Date.now()): void {
    const m = this.rules;
    if (!m)
      return void this.agentRules().then(
        (loaded) => {
          this.rules = loaded;
          this.onAgentSignal(signal, at);
        },
        (e: unknown) => this.report(toError(e)),
      );
    const next = m.nextAgentState(this.state.agentState, signal, at);
    if (next) this.set({ agentState: next });
    if (next) this.captions?.agentState(next);
  }

  onMicTrack(track: MediaStreamTrack | null): void {
    this.setMedia({ micTrack: track });
  }

  /**
   * The avatar left the room mid-call and did not come back. When the service still runs the session (its status
   * asked now is not final), it is ended with `endReason` `remote`: `/end` stops the billing of a call nobody can see.
   * A final status instead ends it as the service says (`completed`, …).
   */
  async onAvatarLeft(call: Call): Promise<void> {
    if (this.life.stage !== 'running') return;
    const res = await call.statusNow();
    if (!this.isCurrent(call) || this.life.stage !== 'running') return;
    if (res) this.onStatus(res);
    if (this.isCurrent(call) && this.life.stage === 'running') void this.teardown({ reason: 'remote', terminate: true });
  }

  /** The room was lost for good (`transport_failed`). */
  onRoomLost(error: LiveAiError): void {
    this.fail(error, 'network');
  }

  /** `call` left its room: the media state is cleared. */
  onLeft(call: Call): void {
    if (!this.isCurrent(call)) return;
    this.audio.attach(null); // which ends a blocked autoplay (the audio output reports it)
    this.onConnection('disconnected', { videoTrack: null, audioTrack: null, micTrack: null });
    this.onAgentSignal({ kind: 'reset' });
    this.captions?.flush();
  }

  // ---- commands ------------------------------------------------------------------------------------------

  /** The created or attached session of the current call (`getClientSession()`). */
  get clientSession(): ClientSession | null {
    return this.client;
  }

  private get client(): ClientSession | null {
    return this.life.call?.client ?? null;
  }

  /** The joined transport, unless the room is disconnected. */
  private connected() {
    const t = this.life.call?.transport;
    return t && this.state.media.connection !== 'disconnected' ? t : null;
  }

  private requireTransport() {
    const t = this.connected();
    if (!t) throw new LiveAiError('transport_failed', 'not connected to the room');
    return t;
  }

  async sendChat(text: string): Promise<void> {
    const chat = { event: 'chat-msg', message: text, name: this.options.userName ?? 'user' };
    const msg = await check(chat, (s) => s.ChatMessageSchema);
    if (!msg.success) throw invalidRequest(msg.issues);
    await this.requireTransport().sendAppMessage(msg.output);
  }

  async forceEnd(): Promise<void> {
    await this.requireTransport().sendAppMessage({ event: 'force-end' });
  }

  async interrupt(): Promise<void> {
    const t = this.requireTransport();
    if (!t.interrupt)
      throw new LiveAiError('invalid_request', 'interrupting is not available in this room: only a LiveKit agent can be interrupted', {
        status: 400,
      });
    // The captions stop where the voice stops: frozen now, before the agent's state says it stopped speaking (which
    // would show the rest of the line as said).
    this.captions?.cut();
    await t.interrupt();
  }

  async control(event: Parameters<AvatarSession['control']>[0]): Promise<{ success: boolean }> {
    return (await this.controls()).sendControl(this.proxy, this.client, event);
  }

  private async sendEvent(event: unknown): Promise<void> {
    await (await this.controls()).sendControl(this.proxy, this.client, event);
  }

  /** Sends `update-image`, recording its progress: `sending` at once, `requested` once the proxy took it, `error`. */
  async updateImage(input: ImageInput): Promise<void> {
    this.set(this.imageStep({ kind: 'sending' }));
    try {
      const m = await this.controls();
      await m.sendControl(this.proxy, this.client, await m.imageEvent(input, this.client, this.options));
      this.set(this.imageStep({ kind: 'requested' }));
    } catch (e) {
      const error = toError(e);
      this.set(this.imageStep({ kind: 'failed', error: error.detail }));
      throw error;
    }
  }

  updateAgentPrompt = (prompt: string) => this.sendEvent({ event: 'update-agent-prompt', agent_prompt: prompt });
  updateIdlePrompt = (prompt: string) => this.sendEvent({ event: 'update-idle-prompt', idle_prompt: prompt });
  action = (name: string) => this.sendEvent({ event: 'action', action: name });
  resetIdleTimeout = () => this.sendEvent({ event: 'reset-idle-timeout' });

  async leaveMeeting(meetingBotId: string): Promise<{ status: 'left' }> {
    return (await this.controls()).leaveMeeting(this.proxy, this.client, meetingBotId);
  }

  /** Before the room is joined only the wish is recorded (the join applies it). */
  async setMicEnabled(enabled: boolean): Promise<void> {
    const t = this.connected();
    this.setMedia(t ? { micPending: true } : { micEnabled: enabled });
    await t?.setMicEnabled(enabled).finally(() => this.setMedia({ micPending: false }));
  }

  /**
   * `''` or `'default'` is the system's default device (no exact device asked of the browser); any other id is that
   * device. The choice lasts for this session (its calls and restarts); a failure is `device_failed`.
   */
  async setDevice(kind: DeviceKind, deviceId: string): Promise<void> {
    const id = isDefaultDevice(deviceId) ? '' : deviceId;
    try {
      if (kind === 'audiooutput') {
        await this.audio.setSinkId(id);
        await this.life.call?.transport?.setDevice(kind, id).catch(() => {});
        return;
      }
      if (id) this.devices.set(kind, id);
      else this.devices.delete(kind);
      await this.connected()?.setDevice(kind, id);
    } catch (cause) {
      throw deviceError(kind, deviceId, cause);
    }
  }

  async getCallStats(): Promise<CallStats | null> {
    return (
      (await this.connected()
        ?.getStats?.()
        .catch(() => null)) ?? null
    );
  }
}

/**
 * A session optionally seeded with a state, a created session and a connected transport (stories, `liveai-kit/testing`).
 * @internal
 */
export function createSeededSession(options: AvatarSessionOptions, seed: SessionSeed): AvatarSession {
  const host = createHost(options, seed.initialState);
  return sessionObject(options, host, new SessionEngine(options, host, seed));
}

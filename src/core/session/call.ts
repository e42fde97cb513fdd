import { LiveAiError, invalidRequest, isLiveAiError } from '../errors';
import { check } from '../lazy';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession, SessionStatusResponse } from '../schemas';
import { isFinalStatus } from '../schemas/plain';
import { jitter } from '../../shared/backoff';
import { DEFAULT_EVENT_TOPIC } from '../constants';
import { chooseTransport } from '../transports/choose';
import type { Transport, TransportLoader } from '../transports/types';
import type { SessionEngine } from './session';
import type { AvatarSessionOptions, SessionFlow } from './types';

/** Latest time after the create answer at which the status is polled even if the room join has not settled, ms. */
export const FIRST_POLL_LATEST_MS = 1000;

export const toError = (e: unknown): LiveAiError =>
  isLiveAiError(e) ? e : new LiveAiError('upstream_error', String((e as Error)?.message ?? e), { cause: e });
export const aborted = () => new LiveAiError('aborted', 'start cancelled by end() or dispose()');

/**
 * The resources of one `start()`: its abort signal, the session handle, the joined room (transport and its
 * listeners), the status poller, the keep-alive, the page-unload listener and the client token's renewals. A new
 * call per start, so nothing of an earlier call (a late poll, an old room) can act on a later one. It reports only
 * to its session, and only while it is the session's current call; `dispose()` frees it all at once.
 */
export class Call {
  private readonly controller = new AbortController();
  client: ClientSession | null;
  transport: Transport | null = null;
  private disposed = false;
  /** Why the start was cancelled. */
  reason: LiveAiError | null = null;
  private readonly poller: StatusPoller;
  private offs: (() => void)[] = [];
  private keepAlive: KeepAlive | null = null;
  private unload: (() => void) | null = null;
  private firstPoll: ReturnType<typeof setTimeout> | undefined;
  private finalWaiters: (() => void)[] = [];
  private settleActive!: { resolve: () => void; reject: (e: unknown) => void };
  /** Resolves when the session is active; rejects when the call ends first. */
  readonly active = new Promise<void>((resolve, reject) => (this.settleActive = { resolve, reject }));

  constructor(
    private readonly session: SessionEngine,
    private readonly proxy: ProxyClient,
    client: ClientSession | null,
    private readonly timing: { intervalMs: number; maxIntervalMs: number },
  ) {
    this.client = client;
    this.active.catch(() => {});
    this.poller = createStatusPoller({
      fetchStatus: (signal) => this.proxy.getSession(this.client!.session_id, this.client!.client_token, { signal }),
      onStatus: (res) => {
        if (this.current) this.session.onStatus(res);
        if (isFinalStatus(res.session_status)) this.finalWaiters.splice(0).forEach((w) => w());
      },
      onError: (e) => this.current && this.session.onPollError(toError(e)),
      ...timing,
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Only the session's current call reports to it (a late answer of an earlier call changes nothing). */
  private get current(): boolean {
    return this.session.isCurrent(this);
  }

  /** The session handle of the flow: created through the proxy (`room`, `session`) or checked (`attach`). */
  async obtain(flow: SessionFlow): Promise<ClientSession> {
    const signal = this.signal;
    let c: ClientSession;
    if (flow.kind === 'room') c = await this.proxy.createRoom(flow.agentId, { signal });
    else if (flow.kind === 'session') c = await this.proxy.createSession(flow.request, flow.image, { signal });
    else {
      const parsed = await check(flow.session, (s) => s.ClientSessionSchema);
      if (!parsed.success) throw invalidRequest(parsed.issues);
      c = parsed.output;
    }
    if (signal.aborted) {
      // Created while being cancelled: end it so nobody pays for it.
      if (flow.kind !== 'attach') void this.proxy.end(c.session_id, c.client_token).catch(() => {});
      throw this.reason ?? aborted();
    }
    this.client = c;
    return c;
  }

  /**
   * Joins the session's room, when it has one: loads the transport adapter, connects (publishing the microphone
   * when `micEnabled`), then applies the devices chosen before. The first status poll waits until the join settled
   * (at most FIRST_POLL_LATEST_MS): its answer and the re-render it causes would otherwise compete with the join for
   * the main thread. When the avatar's video is already there by then, its first frame is being decoded, and the
   * status can only say what the video already shows: the first poll then comes one poll interval later.
   * Rejects with the adapter's error.
   */
  async join(
    o: Pick<
      AvatarSessionOptions,
      'transport' | 'eventTopic' | 'reconnectDeadlineMs' | 'jitterBufferTargetMs' | 'flow' | 'preConnectAudio'
    > & {
      loader: TransportLoader;
      micEnabled: boolean;
      devices: ReadonlyMap<'audioinput' | 'videoinput', string>;
    },
  ): Promise<void> {
    this.pollIn(FIRST_POLL_LATEST_MS);
    try {
      const c = this.client!;
      const kind = chooseTransport(c, o.transport);
      if (!kind || !c.room_url) return;
      const factory = await o.loader(kind);
      if (this.signal.aborted) return;
      const t = factory();
      this.use(t);
      await t.connect({
        url: c.room_url,
        token: c.token ?? '',
        eventTopic: o.eventTopic ?? DEFAULT_EVENT_TOPIC,
        ...(c.avatar_identity ? { avatarIdentity: c.avatar_identity } : {}),
        micEnabled: o.micEnabled,
        // A LiveKit agent's room (attach): what the visitor says while joining reaches the agent.
        preConnectAudio: o.flow.kind === 'attach' && o.preConnectAudio !== false,
        // The chosen microphone is the one published: never the default first, then a switch.
        micDeviceId: o.devices.get('audioinput'),
        reconnectDeadlineMs: o.reconnectDeadlineMs,
        jitterBufferTargetMs: o.jitterBufferTargetMs,
        signal: this.signal,
      });
      // The microphone published at the join already is the chosen one: switching to it again would restart it.
      for (const [k, id] of o.devices)
        if (k !== 'audioinput' || !o.micEnabled) await t.setDevice(k, id).catch((e) => this.session.report(toError(e)));
    } finally {
      if (this.session.live) this.pollIn(this.timing.intervalMs);
      else this.startPolling();
    }
  }

  /** The first poll `ms` from now; none once the call was cancelled (a join that failed on `dispose()`). */
  private pollIn(ms: number): void {
    clearTimeout(this.firstPoll);
    if (this.signal.aborted) return;
    this.firstPoll = setTimeout(() => this.startPolling(), ms);
  }

  /** Listens to a joined (or seeded) transport on behalf of the session. */
  use(t: Transport): void {
    this.transport = t;
    const s = this.session;
    const mine = () => this.transport === t && this.current;
    this.offs = [
      t.on('event', (e) => mine() && s.onEvent(e)),
      t.on('invalidMessage', ({ error }) => mine() && s.report(error)),
      t.on('track', (e) => mine() && s.onTrack(e.kind, e.track)),
      t.on('connection', (c) => mine() && s.onConnection(c)),
      t.on('mic', ({ enabled }) => mine() && s.onMic(enabled)),
      t.on('transcription', (seg) => mine() && s.onTranscription(seg)),
      t.on('agentState', ({ state }) => mine() && s.onAgentSignal({ kind: 'agent', state })),
      t.on('speaking', ({ who, speaking }) => {
        // The user falling quiet changes nothing: the final transcription (or the avatar's answer) moves it on.
        if (!mine() || (who === 'user' && !speaking)) return;
        s.onAgentSignal(who === 'avatar' ? { kind: 'avatar', speaking } : { kind: 'user', final: false });
      }),
      t.on('micTrack', ({ track }) => mine() && s.onMicTrack(track)),
      t.on('avatarLeft', () => void (mine() && s.onAvatarLeft(this))),
      t.on('disconnected', ({ error }) => void (mine() && error && s.onRoomLost(error))),
    ];
  }

  private startPolling(): void {
    clearTimeout(this.firstPoll);
    this.firstPoll = undefined;
    if (!this.signal.aborted && !this.poller.running) this.poller.start();
  }

  becameActive(): void {
    this.settleActive.resolve();
  }

  /** Sends `send` at most every `intervalMs` while the user is active on the page; one per call. */
  keepAliveEvery(intervalMs: number, send: () => void): void {
    if (this.keepAlive || this.signal.aborted) return;
    this.keepAlive = createKeepAlive({ intervalMs, send });
    this.keepAlive.start();
  }

  /** Calls `onPageHide` on `pagehide` until the call is quiet. */
  watchUnload(onPageHide: () => void): void {
    if (this.unload || typeof window === 'undefined') return;
    window.addEventListener('pagehide', onPageHide);
    this.unload = () => window.removeEventListener('pagehide', onPageHide);
  }

  /** Stops the start (its promise rejects with `error`), any request in flight, the keep-alive and the unload listener. */
  cancel(error: LiveAiError): void {
    this.reason ??= error;
    this.controller.abort();
    this.settleActive.reject(error);
    clearTimeout(this.firstPoll);
    this.keepAlive?.stop();
    this.keepAlive = null;
    this.unload?.();
    this.unload = null;
  }

  /** The service's status now, one request outside the poller's pace; null when it cannot be had. Never rejects. */
  async statusNow(): Promise<SessionStatusResponse | null> {
    const c = this.client;
    if (!c || this.signal.aborted) return null;
    return this.proxy.getSession(c.session_id, c.client_token, { signal: this.signal }).catch(() => null);
  }

  /** Leaves the room (idempotent); the session itself goes on at the service. Never rejects. */
  async leave(): Promise<void> {
    const t = this.transport;
    if (!t) return;
    try {
      await t.disconnect();
    } catch (e) {
      this.session.report(toError(e));
    }
    this.offs.splice(0).forEach((off) => off());
    if (this.transport === t) this.transport = null;
    this.session.onLeft(this);
  }

  /** Resolves once a final status was polled, or after `limitMs`; at once when the call was disposed (nothing polls). */
  async finalStatus(isFinal: () => boolean, limitMs: number): Promise<void> {
    if (this.disposed || isFinal()) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reached = new Promise<void>((resolve) => this.finalWaiters.push(resolve));
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
    this.poller.hurry();
    await Promise.race([reached, limit]);
    clearTimeout(timer);
  }

  /**
   * Frees everything at once: the start, polling, keep-alive, unload listener, token renewals, and the room. Once:
   * a second call does nothing (the room is left once, even while the first leave is still under way).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancel(aborted());
    this.poller.stop();
    this.finalWaiters.splice(0).forEach((w) => w());
    if (this.client) this.proxy.forget(this.client.client_token);
    void this.leave();
  }
}

// The status poller of a call: how the session learns the service status.

/** Options of `createStatusPoller`. Times in ms. */
export interface StatusPollerOptions {
  fetchStatus: (signal: AbortSignal) => Promise<SessionStatusResponse>;
  onStatus: (response: SessionStatusResponse) => void;
  /** Errors of one poll; polling goes on for retryable errors and stops for the others. */
  onError: (error: unknown) => void;
  intervalMs: number;
  maxIntervalMs: number;
  random?: () => number;
}

/** Delay before the next poll: the interval times a jitter factor in [0.8, 1.2). Pure. */
export const jittered = (intervalMs: number, random: () => number): number => jitter(intervalMs, 0.2, random);

/** Next interval after a poll: ×1.5 up to the maximum, back to the first interval when the status changed. Pure. */
export function nextInterval(current: number, opts: { base: number; max: number; changed: boolean }): number {
  if (opts.changed) return opts.base;
  return Math.min(opts.max, Math.max(opts.base, Math.round(current * 1.5)));
}

/**
 * Polls the session status with backoff and jitter until a final status (COMPLETED, TIMED_OUT, FAILED) or `stop()`.
 * One poll at a time. `start()` polls at once; `hurry()` resets the backoff and polls at once (used while ending).
 * `stop()` is for good: a later `start()` or `hurry()` does nothing.
 */
export function createStatusPoller(o: StatusPollerOptions) {
  const random = o.random ?? Math.random;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  let running = false;
  let stopped = false;
  let inFlight = false;
  let interval = o.intervalMs;
  let last: string | undefined;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(poll, delay);
  };
  async function poll(): Promise<void> {
    if (!running || inFlight) return;
    inFlight = true;
    controller = new AbortController();
    try {
      const res = await o.fetchStatus(controller.signal);
      if (!running) return;
      const changed = res.session_status !== last;
      last = res.session_status;
      interval = nextInterval(interval, { base: o.intervalMs, max: o.maxIntervalMs, changed });
      if (isFinalStatus(res.session_status)) running = false;
      o.onStatus(res);
    } catch (error) {
      if (!running) return;
      o.onError(error);
      if (isLiveAiError(error) && !error.retryable) running = false;
      interval = nextInterval(interval, { base: o.intervalMs, max: o.maxIntervalMs, changed: false });
    } finally {
      inFlight = false;
      if (running) schedule(jittered(interval, random));
    }
  }
  return {
    start() {
      if (running || stopped) return;
      running = true;
      interval = o.intervalMs;
      void poll();
    },
    hurry() {
      if (!running) return this.start();
      interval = o.intervalMs;
      if (!inFlight) schedule(0);
    },
    stop() {
      running = false;
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
    },
    get running() {
      return running;
    },
  };
}
export type StatusPoller = ReturnType<typeof createStatusPoller>;

// The keep-alive of a call: activity of the user resets the service's idle timeout.

/** Options of `createKeepAlive`. */
export interface KeepAliveOptions {
  /** Minimum time between two `send()` calls, in ms. */
  intervalMs: number;
  /** Sends one keep-alive (the session sends the `reset-idle-timeout` control event). */
  send: () => void;
  /** Where activity is observed (default `window`; nothing is observed without one). */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Document whose `visibilitychange` to a visible page counts as activity (default `document`). */
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  now?: () => number;
}

/** Events that count as user activity. */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Keeps a session alive while the user is active (anchors: "idle disconnects that end paid sessions by surprise"):
 * on a pointer, key, wheel, touch or scroll event, or when the page becomes visible again, calls `send()`
 * if at least `intervalMs` passed since the last send (or since `start()`). Nothing is sent while the user is away.
 */
export function createKeepAlive(o: KeepAliveOptions) {
  const now = o.now ?? Date.now;
  const target = o.target ?? (typeof window === 'undefined' ? undefined : window);
  const doc = o.document ?? (typeof document === 'undefined' ? undefined : document);
  let last = 0;
  let running = false;
  const onActivity = () => {
    if (!running) return;
    const t = now();
    if (t - last < o.intervalMs) return;
    last = t;
    o.send();
  };
  const onVisibility = () => {
    if (doc?.visibilityState === 'visible') onActivity();
  };
  return {
    start() {
      if (running) return;
      running = true;
      last = now();
      for (const name of ACTIVITY_EVENTS) target?.addEventListener(name, onActivity, { passive: true, capture: true });
      doc?.addEventListener('visibilitychange', onVisibility);
    },
    stop() {
      if (!running) return;
      running = false;
      for (const name of ACTIVITY_EVENTS) target?.removeEventListener(name, onActivity, { capture: true });
      doc?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
export type KeepAlive = ReturnType<typeof createKeepAlive>;

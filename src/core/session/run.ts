import { LiveAiError, invalidRequest, isLiveAiError } from '../errors';
import { check } from '../lazy';
import { createKeepAlive, type KeepAlive } from '../keepalive';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession, SessionStatusResponse } from '../schemas';
import type { Transport, TransportLoader } from '../transports/types';
import { DEFAULT_EVENT_TOPIC } from '../constants';
import { chooseTransport } from './phase';
import { createStatusPoller, type StatusPoller } from './poller';
import { isFinalStatus } from '../schemas/plain';
import type { AvatarSessionOptions, SessionFlow } from './types';

/** What a run reports to the engine. */
export interface RunHooks {
  status(response: SessionStatusResponse): void;
  pollError(error: unknown): void;
  /** Subscribes the engine to a joined transport; returns the unsubscribe functions. */
  wire(transport: Transport): (() => void)[];
  /** The transport was left: the engine clears the media state. */
  left(): void;
  report(error: unknown): void;
}

/** What `Run.join` needs from the session options and the engine. */
export interface JoinOptions extends Pick<AvatarSessionOptions, 'transport' | 'eventTopic' | 'reconnectDeadlineMs'> {
  loader: TransportLoader;
  micEnabled: boolean;
  devices: ReadonlyMap<'audioinput' | 'videoinput', string>;
  report: (error: unknown) => void;
}

/** Polling and time options of a run, in ms. */
export interface RunTiming {
  intervalMs: number;
  maxIntervalMs: number;
}

export const isFinal = (status: SessionStatusResponse['session_status'] | null) => status !== null && isFinalStatus(status);
export const toError = (e: unknown): LiveAiError =>
  isLiveAiError(e) ? e : new LiveAiError('upstream_error', String((e as Error)?.message ?? e), { cause: e });
export const aborted = () => new LiveAiError('aborted', 'start cancelled by end() or dispose()');

/**
 * Everything one `start()` owns: its abort signal, the session handle, the joined transport, the status poller,
 * the keep-alive, the page-unload listener, and the promise `start()` waits on. A new run per start, so nothing of
 * an earlier session (a late poll, an old room) can act on a later one. `release()` frees it all.
 */
export class Run {
  readonly controller = new AbortController();
  transport: Transport | null = null;
  readonly poller: StatusPoller;
  private offs: (() => void)[] = [];
  private keepAlive: KeepAlive | null = null;
  private unload: (() => void) | null = null;
  private finalWaiters: (() => void)[] = [];
  private settleActive!: { resolve: () => void; reject: (e: unknown) => void };
  /** Resolves when the session is active; rejects when the run ends first. */
  readonly active = new Promise<void>((resolve, reject) => (this.settleActive = { resolve, reject }));

  constructor(
    public client: ClientSession | null,
    private readonly proxy: ProxyClient,
    private readonly hooks: RunHooks,
    timing: RunTiming,
  ) {
    this.active.catch(() => {});
    this.poller = createStatusPoller({
      fetchStatus: (signal) => this.proxy.getSession(this.client!.session_id, this.client!.client_token, { signal }),
      onStatus: (res) => {
        this.hooks.status(res);
        if (isFinalStatus(res.session_status)) {
          this.finalWaiters.splice(0).forEach((w) => w());
        }
      },
      onError: (e) => this.hooks.pollError(e),
      ...timing,
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  becameActive(): void {
    this.settleActive.resolve();
  }

  /** Why the start was cancelled. */
  reason: LiveAiError | null = null;

  /** Stops the start (its promise rejects with `error`) and any request it has in flight. */
  cancel(error: LiveAiError): void {
    this.reason ??= error;
    this.controller.abort();
    this.settleActive.reject(error);
  }

  use(transport: Transport): void {
    this.transport = transport;
    this.offs = this.hooks.wire(transport);
  }

  startKeepAlive(intervalMs: number, send: () => void): void {
    if (this.keepAlive) return;
    this.keepAlive = createKeepAlive({ intervalMs, send });
    this.keepAlive.start();
  }

  /** Calls `onPageHide` on `pagehide` until released. */
  watchUnload(onPageHide: () => void): void {
    if (this.unload || typeof window === 'undefined') return;
    window.addEventListener('pagehide', onPageHide);
    this.unload = () => window.removeEventListener('pagehide', onPageHide);
  }

  /**
   * Joins the session's room, when it has one: loads the transport adapter, connects (publishing the microphone
   * when `micEnabled`), then applies the devices chosen before. Rejects with the adapter's error.
   */
  async join(c: ClientSession, o: JoinOptions): Promise<void> {
    const kind = chooseTransport(c, o.transport);
    if (!kind || !c.room_url) return;
    const factory = await o.loader(kind);
    if (this.signal.aborted) return;
    const t = factory();
    this.use(t);
    const eventTopic = o.eventTopic ?? DEFAULT_EVENT_TOPIC;
    await t.connect({
      url: c.room_url,
      token: c.token ?? '',
      eventTopic,
      micEnabled: o.micEnabled,
      reconnectDeadlineMs: o.reconnectDeadlineMs,
      signal: this.signal,
    });
    for (const [k, id] of o.devices) await t.setDevice(k, id).catch((e) => o.report(e));
  }

  /** Stops the keep-alive and the unload listener (the session is ending). */
  quiet(): void {
    this.keepAlive?.stop();
    this.keepAlive = null;
    this.unload?.();
    this.unload = null;
  }

  /** Leaves the room (idempotent); the session itself goes on at the service. */
  async leave(): Promise<void> {
    const t = this.transport;
    this.transport = null;
    if (!t) return;
    try {
      await t.disconnect();
    } catch (e) {
      this.hooks.report(e);
    }
    this.offs.splice(0).forEach((off) => off());
    this.hooks.left();
  }

  /** Resolves once a final status was polled, or after `limitMs`. */
  async finalStatus(isFinal: () => boolean, limitMs: number): Promise<void> {
    if (isFinal()) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reached = new Promise<void>((resolve) => this.finalWaiters.push(resolve));
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)));
    this.poller.hurry();
    await Promise.race([reached, limit]);
    clearTimeout(timer);
  }

  /** Frees everything: stops the start, polling, keep-alive and unload listener, and leaves the room. */
  release(): void {
    this.cancel(aborted());
    this.poller.stop();
    this.quiet();
    this.finalWaiters.splice(0).forEach((w) => w());
    void this.leave();
  }
}

/** The session handle of a flow: created through the proxy (`room`, `session`) or checked (`attach`). */
export async function obtainClient(flow: SessionFlow, proxy: ProxyClient, signal: AbortSignal): Promise<ClientSession> {
  if (flow.kind === 'room') return proxy.createRoom(flow.agentId, { signal });
  if (flow.kind === 'session') return proxy.createSession(flow.request, flow.image, { signal });
  const parsed = await check(
    flow.session,
    (g) => g.clientSessionGuard,
    (v) => v.ClientSessionSchema,
  );
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

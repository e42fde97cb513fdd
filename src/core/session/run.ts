import { LiveAiError } from '../errors';
import { createKeepAlive, type KeepAlive } from '../keepalive';
import type { ProxyClient } from '../proxy-client';
import type { ClientSession, SessionStatusResponse } from '../schemas';
import type { Transport } from '../transports/types';
import { createStatusPoller, type StatusPoller } from './poller';
import { isFinalStatus } from '../schemas/plain';

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

/** Polling and time options of a run, in ms. */
export interface RunTiming {
  intervalMs: number;
  maxIntervalMs: number;
}

export const aborted = () => new LiveAiError('aborted', 'the start was cancelled (end() or dispose() was called)');

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

  startKeepAlive(intervalMs: number | undefined, send: () => void): void {
    if (!intervalMs || this.keepAlive) return;
    this.keepAlive = createKeepAlive({ intervalMs, send });
    this.keepAlive.start();
  }

  /** Calls `onPageHide` on `pagehide` until released. */
  watchUnload(onPageHide: () => void): void {
    if (this.unload || typeof window === 'undefined') return;
    window.addEventListener('pagehide', onPageHide);
    this.unload = () => window.removeEventListener('pagehide', onPageHide);
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
